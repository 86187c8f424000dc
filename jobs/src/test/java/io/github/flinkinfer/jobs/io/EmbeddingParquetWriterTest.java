package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.TokenWindows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows written without Avro read back through Avro exactly, nulls included. */
class EmbeddingParquetWriterTest {
    @TempDir Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void avroReadersSeeEveryFieldAsWritten() throws Exception {
        InferenceResult plain = result("doc-1", new float[] {0.25f, -1.5f, 3f});
        plain.source = "corpus.jsonl:1";
        InferenceResult chunk = result("doc-2#1", new float[] {1f, 2f, 3f});
        chunk.chunk = ChunkRef.document("doc-2", "abc123", "max_length=128;chunk=64/8")
                .window(new TokenWindows.Window(1, 56, 120), 3);
        chunk.truncated = true;

        Path file = write(new EmbeddingParquetWriter(), List.of(plain, chunk), tmp.resolve("rows.parquet"));

        List<GenericRecord> rows = readAll(file);
        assertThat(rows).hasSize(2);
        GenericRecord a = rows.get(0);
        assertThat(a.getSchema()).isEqualTo(EmbeddingParquetWriter.SCHEMA);
        assertThat(a.get("id").toString()).isEqualTo("doc-1");
        assertThat((List<Object>) a.get("embedding")).containsExactly(0.25f, -1.5f, 3f);
        assertThat(a.get("model").toString()).isEqualTo("m");
        assertThat(a.get("model_version").toString()).isEqualTo("1");
        assertThat(a.get("token_count")).isEqualTo(7);
        assertThat(a.get("original_token_count")).isEqualTo(9);
        assertThat(a.get("truncated")).isEqualTo(false);
        assertThat(a.get("source").toString()).isEqualTo("corpus.jsonl:1");
        assertThat(a.get("doc_id").toString()).isEqualTo("doc-1");
        for (String absent : List.of("chunk_index", "chunk_count", "token_start", "token_end",
                "content_sha256", "embed_settings")) {
            assertThat(a.get(absent)).as(absent).isNull();
        }

        GenericRecord b = rows.get(1);
        assertThat(b.get("id").toString()).isEqualTo("doc-2#1");
        assertThat(b.get("source")).isNull();
        assertThat(b.get("truncated")).isEqualTo(true);
        assertThat(b.get("doc_id").toString()).isEqualTo("doc-2");
        assertThat(b.get("chunk_index")).isEqualTo(1);
        assertThat(b.get("chunk_count")).isEqualTo(3);
        assertThat(b.get("token_start")).isEqualTo(56);
        assertThat(b.get("token_end")).isEqualTo(120);
        assertThat(b.get("content_sha256").toString()).isEqualTo("abc123");
        assertThat(b.get("embed_settings").toString()).isEqualTo("max_length=128;chunk=64/8");
    }

    @Test
    void floatsComeBackBitForBitFromByteStreamSplitZstdPages() throws Exception {
        java.util.Random random = new java.util.Random(7);
        List<InferenceResult> written = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            float[] v = new float[384];
            for (int h = 0; h < v.length; h++) {
                v[h] = (float) random.nextGaussian() / 20;
            }
            InferenceResult r = result("d" + i, v);
            r.chunk = ChunkRef.document(r.id, "sha-" + i, "max_length=128;overlong=TRUNCATE");
            written.add(r);
        }
        written.get(0).vector = new float[] {-0f, Float.MIN_VALUE, Float.NaN, Float.MAX_VALUE, 1e-40f};
        Path file = write(new EmbeddingParquetWriter(), written, tmp.resolve("floats.parquet"));
        try (ParquetReader<GenericRecord> r =
                AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file)).build()) {
            for (InferenceResult expected : written) {
                assertThat(bits(r.read())).isEqualTo(bits(expected.vector));
            }
            assertThat(r.read()).isNull();
        }
        try (org.apache.parquet.hadoop.ParquetFileReader footer =
                org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
            for (var column : footer.getFooter().getBlocks().get(0).getColumns()) {
                String path = column.getPath().toDotString();
                assertThat(column.getCodec()).as(path)
                        .isEqualTo(org.apache.parquet.hadoop.metadata.CompressionCodecName.ZSTD);
                if (path.equals(EmbeddingParquetWriter.VECTOR_COLUMN)) {
                    assertThat(column.getEncodings()).as(path)
                            .contains(org.apache.parquet.column.Encoding.BYTE_STREAM_SPLIT);
                    assertThat(column.getStatistics().isEmpty()).as(path + ": no min/max").isTrue();
                } else if (path.equals("token_count")) {
                    assertThat(column.getStatistics().isEmpty()).as(path + " keeps its statistics").isFalse();
                }
            }
        }
    }

    /**
     * The page writer's file reads back as the record API writer's does, row by row and field by
     * field, over many pages and row groups: empty and long vectors, nulls in every optional
     * column, chunk rows, non-ASCII strings, both booleans.
     */
    @Test
    void pagesReadBackAsTheRecordApiWritersRowsAcrossPagesAndRowGroups() throws Exception {
        java.util.Random random = new java.util.Random(11);
        List<InferenceResult> written = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            float[] v = new float[i % 97 == 0 ? 0 : i % 5 == 0 ? 1024 : 384];
            for (int h = 0; h < v.length; h++) {
                v[h] = (float) random.nextGaussian() / 20;
            }
            InferenceResult r = result("d" + i + (i % 7 == 0 ? "-é✓" : ""), v);
            r.tokenCount = random.nextInt(512);
            r.originalTokenCount = r.tokenCount + random.nextInt(3);
            r.truncated = i % 3 == 0;
            r.source = i % 4 == 0 ? null : "corpus.jsonl:" + i;
            if (i % 2 == 0) {
                r.chunk = ChunkRef.document("doc" + i, "sha-" + i, "max_length=128;chunk=64/8");
                if (i % 6 == 0) {
                    r.chunk = r.chunk.window(new TokenWindows.Window(i % 4, 56 * (i % 4), 56 * (i % 4) + 64), 4);
                }
            }
            written.add(r);
        }
        Path pages = write(out -> new EmbeddingPages(out, EmbeddingParquetWriter.PARQUET_SCHEMA,
                EmbeddingParquetWriter.FOOTER, 16 * 1024, 96 * 1024), written, tmp.resolve("pages.parquet"));
        Path reference = write(new RecordApiParquetWriter(), written, tmp.resolve("record-api.parquet"));
        List<GenericRecord> expected = readAll(reference);
        List<GenericRecord> actual = readAll(pages);
        assertThat(actual).hasSize(written.size());
        for (int i = 0; i < written.size(); i++) {
            assertThat(actual.get(i).toString()).as("row " + i).isEqualTo(expected.get(i).toString());
            assertThat(bits(actual.get(i))).as("row " + i).isEqualTo(bits(written.get(i).vector));
        }
        try (org.apache.parquet.hadoop.ParquetFileReader footer =
                org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(pages))) {
            var blocks = footer.getFooter().getBlocks();
            assertThat(blocks).as("row groups").hasSizeGreaterThan(3);
            assertThat(blocks.stream().mapToLong(b -> b.getRowCount()).sum()).isEqualTo(written.size());
            assertThat(footer.getFooter().getFileMetaData().getKeyValueMetaData())
                    .containsEntry("writer.model.name", "flink-inference")
                    .containsEntry("parquet.avro.schema", EmbeddingParquetWriter.SCHEMA.toString());
            for (var column : blocks.get(0).getColumns()) {
                String path = column.getPath().toDotString();
                if (path.equals("token_count")) {
                    assertThat(column.getStatistics().hasNonNullValue()).isTrue();
                    assertThat((Integer) column.getStatistics().genericGetMin()).isGreaterThanOrEqualTo(0);
                } else if (path.equals("source")) {
                    assertThat(column.getStatistics().getNumNulls()).as("nulls counted").isPositive();
                }
            }
            assertThat(footer.readColumnIndex(blocks.get(0).getColumns().get(4))).as("column index").isNotNull();
            for (var block : blocks) { // each page of a constant column holds its one value
                for (var column : block.getColumns()) {
                    if (column.getPath().toDotString().equals("model")) {
                        var index = footer.readColumnIndex(column);
                        assertThat(index.getMinValues()).as("pages' minima").isNotEmpty()
                                .allSatisfy(min -> assertThat(min).isEqualTo(java.nio.ByteBuffer.wrap(new byte[] {'m'})));
                        assertThat(index.getMaxValues()).as("pages' maxima")
                                .allSatisfy(max -> assertThat(max).isEqualTo(java.nio.ByteBuffer.wrap(new byte[] {'m'})));
                    }
                }
            }
        }
        assertThat(statistics(pages)).as("every column's statistics over the file (the embedding's aside)")
                .isEqualTo(statistics(reference));
    }

    /** Each column's min, max and null count over all row groups of {@code file}, the embedding's aside. */
    private static java.util.Map<String, String> statistics(Path file) throws java.io.IOException {
        java.util.Map<String, org.apache.parquet.column.statistics.Statistics<?>> merged = new java.util.TreeMap<>();
        try (org.apache.parquet.hadoop.ParquetFileReader footer =
                org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
            for (var block : footer.getFooter().getBlocks()) {
                for (var column : block.getColumns()) {
                    String path = column.getPath().toDotString();
                    if (!path.startsWith(EmbeddingParquetWriter.VECTOR_COLUMN)) {
                        merged.merge(path, column.getStatistics(), (a, b) -> {
                            a.mergeStatistics(b);
                            return a;
                        });
                    }
                }
            }
        }
        java.util.Map<String, String> described = new java.util.TreeMap<>();
        merged.forEach((path, stats) -> described.put(path, stats.hasNonNullValue()
                ? stats.minAsString() + ".." + stats.maxAsString() + ", nulls " + stats.getNumNulls()
                : "nulls " + stats.getNumNulls()));
        return described;
    }

    /**
     * Row groups end at the writer's share of the JVM's budget: the more writers are open, the
     * smaller each one's groups, and every row is read back whatever the groups' sizes.
     */
    @Test
    void rowGroupsEndAtTheWritersShareOfTheBudget() throws Exception {
        java.util.Random random = new java.util.Random(5);
        List<InferenceResult> written = new ArrayList<>();
        for (int i = 0; i < 12_000; i++) { // about 16 MB compressed
            float[] v = new float[384];
            for (int h = 0; h < v.length; h++) {
                v[h] = (float) random.nextGaussian() / 20;
            }
            written.add(result("d" + i, v));
        }
        RowGroupBudget budget = new RowGroupBudget(8 * RowGroupBudget.MIN_BYTES); // 32 MB
        BulkWriter.Factory<InferenceResult> pages = out -> new EmbeddingPages(out, EmbeddingParquetWriter.PARQUET_SCHEMA,
                EmbeddingParquetWriter.FOOTER, EmbeddingPages.PAGE_BYTES, EmbeddingPages.ROW_GROUP_BYTES, budget);

        Path alone = write(pages, written, tmp.resolve("alone.parquet")); // a 32 MB share: one group
        assertThat(budget.openWriters()).as("finished writers leave the budget").isZero();
        List<Object> others = RowGroups.occupy(budget, 7); // seven more writers open: a 4 MB share each
        Path shared = write(pages, written, tmp.resolve("shared.parquet"));
        others.forEach(budget::closed);

        for (Path file : List.of(alone, shared)) {
            assertThat(readAll(file)).as(file.toString()).hasSize(written.size());
        }
        assertThat(RowGroups.of(alone)).isEqualTo(1);
        assertThat(RowGroups.of(shared)).as("4 MB groups of about 16 MB").isBetween(3, 5);
    }

    @Test
    void aNullInARequiredColumnIsRefusedNotWritten() throws Exception {
        InferenceResult noModel = result("doc-1", new float[] {1f});
        noModel.model = null;
        try (LocalDataOutputStream out = new LocalDataOutputStream(tmp.resolve("bad.parquet").toFile())) {
            BulkWriter<InferenceResult> w = new EmbeddingParquetWriter().create(out);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> w.addElement(noModel))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model");
        }
    }

    /** The raw bits of a row's embedding as read back. */
    @SuppressWarnings("unchecked")
    private static int[] bits(GenericRecord row) {
        return ((List<Float>) row.get("embedding")).stream().mapToInt(Float::floatToRawIntBits).toArray();
    }

    private static int[] bits(float[] vector) {
        int[] bits = new int[vector.length];
        for (int h = 0; h < bits.length; h++) {
            bits[h] = Float.floatToRawIntBits(vector[h]);
        }
        return bits;
    }

    /** Writes {@code rows} with {@code writer} to {@code file}; returns the file. */
    private static Path write(BulkWriter.Factory<InferenceResult> writer, List<InferenceResult> rows, Path file)
            throws Exception {
        try (LocalDataOutputStream out = new LocalDataOutputStream(file.toFile())) {
            BulkWriter<InferenceResult> w = writer.create(out);
            for (InferenceResult r : rows) {
                w.addElement(r);
            }
            w.finish();
        }
        return file;
    }

    private static List<GenericRecord> readAll(Path file) throws Exception {
        List<GenericRecord> rows = new ArrayList<>();
        try (ParquetReader<GenericRecord> r =
                AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file)).build()) {
            for (GenericRecord g = r.read(); g != null; g = r.read()) {
                rows.add(g);
            }
        }
        return rows;
    }

    private static InferenceResult result(String id, float[] v) {
        InferenceResult r = new InferenceResult();
        r.id = id;
        r.vector = v;
        r.model = "m";
        r.modelVersion = "1";
        r.tokenCount = 7;
        r.originalTokenCount = 9;
        return r;
    }
}
