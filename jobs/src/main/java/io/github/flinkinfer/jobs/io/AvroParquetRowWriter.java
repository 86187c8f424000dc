package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.ParquetWriterFactory;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetWriter;

/**
 * A Parquet {@link BulkWriter.Factory} for our POJOs: each value is filled into an Avro record of
 * a fixed schema and written with parquet-avro's writer (as Flink's {@code AvroParquetWriters}
 * builds it), so no Avro type crosses the stream. Subclasses only say how a value becomes a row.
 * A writer's row groups end at its share of the JVM's {@link RowGroupBudget} when it opens (at most
 * parquet-java's 128 MB). parquet-java fixes a writer's group size when it is built, so writers
 * that open together can hold more than the pool between them: the k-th gets the pool divided by
 * k, about 1.7 times the pool for 16 writers and 2.4 times for 32. At 128 MB each they held
 * P × 128 MB.
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
        return create(out, RowGroupBudget.JVM);
    }

    /** A writer whose row groups take their share of {@code budget} (tests: a budget of their own). */
    final BulkWriter<T> create(FSDataOutputStream out, RowGroupBudget budget) throws IOException {
        Schema schema = new Schema.Parser().parse(schemaJson);
        Object writer = new Object(); // this file's place in the budget, until it is finished or collected
        budget.opened(writer);
        long rowGroupBytes = budget.bytesPerWriter(ParquetWriter.DEFAULT_BLOCK_SIZE);
        BulkWriter<GenericRecord> parquet = new ParquetWriterFactory<GenericRecord>(file -> AvroParquetWriter
                .<GenericRecord>builder(file)
                .withSchema(schema)
                .withDataModel(GenericData.get())
                .withRowGroupSize(rowGroupBytes)
                .build())
                .create(out);
        return new BulkWriter<>() {
            private final Object place = writer; // held while this writer is reachable
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
                try {
                    parquet.finish();
                } finally {
                    budget.closed(place);
                }
            }
        };
    }
}
