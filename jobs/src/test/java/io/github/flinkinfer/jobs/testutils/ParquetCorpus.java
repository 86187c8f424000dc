package io.github.flinkinfer.jobs.testutils;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

/**
 * A Parquet corpus of many small row groups: row {@code i} (0-based) has id {@code d<i>} and a text
 * of varying length, an int column that is never read, and, by {@link #kind}, a null id or a blank
 * text now and then.
 */
public final class ParquetCorpus {
    private static final Schema SCHEMA = SchemaBuilder.record("Doc").fields()
            .optionalString("id").optionalString("text").requiredInt("year").endRecord();

    private ParquetCorpus() {}

    /** 0 a good row, 1 a null id, 2 a blank text. */
    public static int kind(int i) {
        return i % 1_009 == 5 ? 1 : i % 2_003 == 7 ? 2 : 0;
    }

    /** The id row {@code i} holds (null for a missing one). */
    public static String id(int i) {
        return kind(i) == 1 ? null : "d" + i;
    }

    /** The text row {@code i} holds. */
    public static String text(int i) {
        return kind(i) == 2 ? "  " : "t" + i + " " + Integer.toHexString(i * 0x9E3779B1) + "x".repeat(i % 23);
    }

    /** Writes {@code rows} rows in row groups of about {@code rowGroupBytes}, uncompressed. */
    public static Path write(Path file, int rows, long rowGroupBytes) throws IOException {
        return write(file, rows, rowGroupBytes, CompressionCodecName.UNCOMPRESSED);
    }

    /** Writes {@code rows} rows in row groups of about {@code rowGroupBytes}, pages compressed by {@code codec}. */
    public static Path write(Path file, int rows, long rowGroupBytes, CompressionCodecName codec) throws IOException {
        try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
                .withSchema(SCHEMA).withRowGroupSize(rowGroupBytes).withPageSize(4 << 10)
                .withCompressionCodec(codec).build()) {
            for (int i = 0; i < rows; i++) {
                GenericData.Record r = new GenericData.Record(SCHEMA);
                r.put("id", id(i));
                r.put("text", text(i));
                r.put("year", 2000 + i % 30);
                w.write(r);
            }
        }
        return file;
    }
}
