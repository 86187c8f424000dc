package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.impl.StreamFormatAdapter;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.formats.parquet.avro.AvroParquetReaders;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads the id and text columns of Parquet files (projection: other columns are not read), each
 * row with its position {@code <path>:<row>} (the file's whole path, 1-based row), so rows of
 * same-named files in two directories stay apart.
 */
public final class ParquetInput {
    private ParquetInput() {}

    /** One projected row and where it came from. */
    public static class Row {
        /** The file's whole path. */
        public String file;
        /** 1-based row number in the file. */
        public long row;
        public String id;
        public String text;

        public Row() {}

        public String position() {
            return file + ":" + row;
        }
    }

    /** The projected rows of each file, numbered from 1 (a restored split goes on counting). */
    public static BulkFormat<Row, FileSourceSplit> format(String idField, String textField) {
        Schema projection =
                SchemaBuilder.record("Input").fields()
                        .optionalString(idField)
                        .optionalString(textField)
                        .endRecord();
        return new Positioned(new StreamFormatAdapter<>(AvroParquetReaders.forGenericRecord(projection)),
                idField, textField);
    }

    /**
     * The Avro reader behind the file path: the Parquet record format is not splittable and
     * checkpoints no byte offset, so a record's skip count is its row number in the file.
     */
    private record Positioned(BulkFormat<GenericRecord, FileSourceSplit> rows, String idField, String textField)
            implements BulkFormat<Row, FileSourceSplit> {
        @Override
        public Reader<Row> createReader(Configuration config, FileSourceSplit split) throws IOException {
            return reader(InputFiles.openInSubtask(split.path(), () -> rows.createReader(config, split)),
                    split.path().toString());
        }

        @Override
        public Reader<Row> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
            return reader(InputFiles.openInSubtask(split.path(), () -> rows.restoreReader(config, split)),
                    split.path().toString());
        }

        @Override
        public boolean isSplittable() {
            return rows.isSplittable();
        }

        @Override
        public TypeInformation<Row> getProducedType() {
            return TypeInformation.of(Row.class);
        }

        private Reader<Row> reader(Reader<GenericRecord> in, String file) {
            return new Reader<>() {
                @Override
                public RecordIterator<Row> readBatch() throws IOException {
                    RecordIterator<GenericRecord> batch = in.readBatch();
                    return batch == null ? null : new RecordIterator<>() {
                        @Override
                        public RecordAndPosition<Row> next() {
                            RecordAndPosition<GenericRecord> r = batch.next();
                            if (r == null) {
                                return null;
                            }
                            Row row = new Row();
                            row.file = file;
                            row.row = r.getRecordSkipCount();
                            Object id = r.getRecord().get(idField);
                            Object text = r.getRecord().get(textField);
                            row.id = id == null ? null : id.toString();
                            row.text = text == null ? null : text.toString();
                            return new RecordAndPosition<>(row, r.getOffset(), r.getRecordSkipCount());
                        }

                        @Override
                        public void releaseBatch() {
                            batch.releaseBatch();
                        }
                    };
                }

                @Override
                public void close() throws IOException {
                    in.close();
                }
            };
        }
    }

    /** Turns projected rows into documents, or errors for missing fields. */
    public static final class ToDocument extends ProcessFunction<Row, Document> {
        @Override
        public void processElement(Row row, Context ctx, Collector<Document> out) {
            String pos = row.position();
            if (row.id == null) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(null, pos, ErrorReason.MISSING_ID, "null id", 1));
            } else if (row.text == null || row.text.isBlank()) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(row.id, pos, ErrorReason.EMPTY_TEXT,
                                "text is null, empty or whitespace", 1));
            } else {
                out.collect(new Document(row.id, row.text, pos));
            }
        }
    }
}
