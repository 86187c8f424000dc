package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AvroParquetRowWriterTest {
    private static final Schema SCHEMA =
            SchemaBuilder.record("Row").fields().requiredString("value").endRecord();

    @TempDir
    Path tmp;

    /** A row writer of one string column. */
    private static final class Strings extends AvroParquetRowWriter<String> {
        Strings() {
            super(SCHEMA);
        }

        @Override
        protected void fill(GenericData.Record row, String value) {
            row.put("value", value);
        }
    }

    /**
     * A writer's row groups end at its share of the budget when it opens, and it leaves the
     * budget when finished; every row is read back.
     */
    @Test
    void rowGroupsEndAtTheShareOfTheBudgetWhenTheWriterOpens() throws Exception {
        Random random = new Random(3);
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) { // about 13 MB: distinct 64-character strings
            byte[] b = new byte[32];
            random.nextBytes(b);
            rows.add(HexFormat.of().formatHex(b));
        }
        RowGroupBudget budget = new RowGroupBudget(8 * RowGroupBudget.MIN_BYTES); // 32 MB
        Path alone = write(budget, rows, tmp.resolve("alone.parquet"));
        assertThat(budget.openWriters()).as("a finished writer leaves the budget").isZero();
        List<Object> others = RowGroups.occupy(budget, 7); // seven more writers open: a 4 MB share each
        Path shared = write(budget, rows, tmp.resolve("shared.parquet"));
        others.forEach(budget::closed);

        assertThat(read(alone)).isEqualTo(rows);
        assertThat(read(shared)).isEqualTo(rows);
        assertThat(RowGroups.of(alone)).isEqualTo(1);
        assertThat(RowGroups.of(shared)).as("4 MB groups of about 13 MB").isBetween(2, 5);
    }

    private static Path write(RowGroupBudget budget, List<String> rows, Path file) throws Exception {
        try (LocalDataOutputStream out = new LocalDataOutputStream(file.toFile())) {
            BulkWriter<String> w = new Strings().create(out, budget);
            assertThat(budget.openWriters()).as("an open writer counts").isPositive();
            for (String r : rows) {
                w.addElement(r);
            }
            w.finish();
        }
        return file;
    }

    private static List<String> read(Path file) throws Exception {
        List<String> values = new ArrayList<>();
        try (ParquetReader<GenericRecord> r = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file)).build()) {
            for (GenericRecord row = r.read(); row != null; row = r.read()) {
                values.add(row.get("value").toString());
            }
        }
        return values;
    }
}
