package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.ErrorReason;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.Outputs;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.formats.parquet.avro.AvroParquetReaders;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Reads the id and text columns of Parquet files (projection: other columns are not read). */
public final class ParquetInput {
    private ParquetInput() {}

    public static StreamFormat<GenericRecord> format(String idField, String textField) {
        Schema projection =
                SchemaBuilder.record("Input").fields()
                        .optionalString(idField)
                        .optionalString(textField)
                        .endRecord();
        return AvroParquetReaders.forGenericRecord(projection);
    }

    /** Turns projected rows into documents, or errors for missing fields. */
    public static final class ToDocument extends ProcessFunction<GenericRecord, Document> {
        private final String idField;
        private final String textField;
        private long row;

        public ToDocument(String idField, String textField) {
            this.idField = idField;
            this.textField = textField;
        }

        @Override
        public void processElement(GenericRecord rec, Context ctx, Collector<Document> out) {
            row++;
            Object id = rec.get(idField);
            Object text = rec.get(textField);
            String pos = "parquet-row:" + row;
            if (id == null) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(null, pos, ErrorReason.MISSING_ID, "null id", 1));
            } else if (text == null || text.toString().isBlank()) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(id.toString(), pos, ErrorReason.EMPTY_TEXT,
                                "text is null, empty or whitespace", 1));
            } else {
                out.collect(new Document(id.toString(), text.toString(), pos));
            }
        }
    }
}
