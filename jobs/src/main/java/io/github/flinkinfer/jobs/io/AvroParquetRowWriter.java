package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.avro.AvroParquetWriters;

/**
 * A Parquet {@link BulkWriter.Factory} for our POJOs: each value is filled into an Avro record of
 * a fixed schema and written with Flink's Avro-Parquet writer, so no Avro type crosses the
 * stream. Subclasses only say how a value becomes a row.
 */
public abstract class AvroParquetRowWriter<T> implements BulkWriter.Factory<T> {
    private static final long serialVersionUID = 1L;

    private final String schemaJson; // Avro schemas are not serializable in every version

    protected AvroParquetRowWriter(Schema schema) {
        this.schemaJson = schema.toString();
    }

    /** Sets the row's fields from {@code value}. */
    protected abstract void fill(GenericData.Record row, T value);

    @Override
    public final BulkWriter<T> create(FSDataOutputStream out) throws IOException {
        Schema schema = new Schema.Parser().parse(schemaJson);
        BulkWriter<GenericRecord> parquet = AvroParquetWriters.forGenericRecord(schema).create(out);
        return new BulkWriter<>() {
            @Override
            public void addElement(T value) throws IOException {
                GenericData.Record row = new GenericData.Record(schema);
                fill(row, value);
                parquet.addElement(row);
            }

            @Override
            public void flush() throws IOException {
                parquet.flush();
            }

            @Override
            public void finish() throws IOException {
                parquet.finish();
            }
        };
    }
}
