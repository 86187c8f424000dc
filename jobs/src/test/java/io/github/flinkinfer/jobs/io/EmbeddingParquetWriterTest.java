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

        Path file = tmp.resolve("rows.parquet");
        try (LocalDataOutputStream out = new LocalDataOutputStream(file.toFile())) {
            BulkWriter<InferenceResult> w = new EmbeddingParquetWriter().create(out);
            w.addElement(plain);
            w.addElement(chunk);
            w.finish();
        }

        List<GenericRecord> rows = new ArrayList<>();
        try (ParquetReader<GenericRecord> r =
                AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file)).build()) {
            for (GenericRecord g = r.read(); g != null; g = r.read()) {
                rows.add(g);
            }
        }
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
    @SuppressWarnings("unchecked")
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
        Path file = tmp.resolve("floats.parquet");
        try (LocalDataOutputStream out = new LocalDataOutputStream(file.toFile())) {
            BulkWriter<InferenceResult> w = new EmbeddingParquetWriter().create(out);
            for (InferenceResult r : written) {
                w.addElement(r);
            }
            w.finish();
        }
        try (ParquetReader<GenericRecord> r =
                AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file)).build()) {
            for (InferenceResult expected : written) {
                List<Float> back = (List<Float>) r.read().get("embedding");
                int[] bits = back.stream().mapToInt(Float::floatToRawIntBits).toArray();
                int[] expectedBits = new int[expected.vector.length];
                for (int h = 0; h < expectedBits.length; h++) {
                    expectedBits[h] = Float.floatToRawIntBits(expected.vector[h]);
                }
                assertThat(bits).isEqualTo(expectedBits);
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
                if (EmbeddingParquetWriter.DICTIONARY_COLUMNS.contains(path)) {
                    assertThat(column.hasDictionaryPage()).as(path).isTrue();
                }
            }
        }
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
