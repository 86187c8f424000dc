package io.github.flinkinfer.operators.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.ContentHash;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class SkipUnchangedFunctionTest {
    static final String SETTINGS = "max_length=256;overlong=truncate";

    @Test
    void unchangedDocumentsAreCarriedChangedNewAndStaleOnesAreNot() throws Exception {
        try (var h = harness(false)) {
            h.processElement1(new Document("same", "text", "f:1"), 0);
            h.processElement2(row("same", "text", "m", "1", SETTINGS), 0);
            h.processElement1(new Document("changed", "new text", "f:2"), 0);
            h.processElement2(row("changed", "old text", "m", "1", SETTINGS), 0);
            h.processElement1(new Document("new", "text", "f:3"), 0);
            h.processElement1(new Document("model", "text", "f:4"), 0);
            h.processElement2(row("model", "text", "m", "0", SETTINGS), 0);
            h.processElement1(new Document("settings", "text", "f:5"), 0);
            h.processElement2(row("settings", "text", "m", "1", "max_length=128;overlong=truncate"), 0);
            h.processElement2(row("deleted", "text", "m", "1", SETTINGS), 0);
            h.processBothWatermarks(new org.apache.flink.streaming.api.watermark.Watermark(Long.MAX_VALUE));

            assertThat(h.extractOutputValues()).extracting(d -> d.id)
                    .containsExactlyInAnyOrder("changed", "new", "model", "settings");
            assertThat(h.getSideOutput(SkipUnchangedFunction.CARRIED)).extracting(r -> r.getValue().id)
                    .containsExactly("same");
            assertThat(h.getSideOutput(SkipUnchangedFunction.CARRIED).peek().getValue().source).isEqualTo("f:1");
            assertThat(h.getSideOutput(SkipUnchangedFunction.SKIPPED)).extracting(r -> r.getValue().tokens)
                    .containsExactly(7L);
        }
    }

    @Test
    void chunkedDocumentsNeedEveryChunkAndThePooledRow() {
        SkipUnchangedFunction f = new SkipUnchangedFunction("m", "1", "c", true);
        String sha = ContentHash.sha256("t");
        InferenceResult c0 = chunked(0, 2, sha);
        InferenceResult c1 = chunked(1, 2, sha);
        InferenceResult pool = chunked(-1, 2, sha);
        assertThat(f.reusable(java.util.List.of(c0, c1, pool), sha)).isTrue();
        assertThat(f.reusable(java.util.List.of(c0, pool), sha)).isFalse();
        assertThat(f.reusable(java.util.List.of(c0, c1), sha)).isFalse();
        assertThat(new SkipUnchangedFunction("m", "1", "c", false).reusable(java.util.List.of(c0, c1), sha)).isTrue();
    }

    static InferenceResult chunked(int index, int count, String sha) {
        InferenceResult r = new InferenceResult();
        r.id = index < 0 ? "d" : ChunkRef.chunkId("d", index);
        r.model = "m";
        r.modelVersion = "1";
        r.chunk = ChunkRef.document("d", sha, "c");
        r.chunk.chunkIndex = index;
        r.chunk.chunkCount = count;
        return r;
    }

    static InferenceResult row(String id, String text, String model, String version, String settings) {
        InferenceResult r = new InferenceResult();
        r.id = id;
        r.vector = new float[] {1};
        r.tokenCount = 7;
        r.model = model;
        r.modelVersion = version;
        r.chunk = ChunkRef.document(id, ContentHash.sha256(text), settings);
        return r;
    }

    static KeyedTwoInputStreamOperatorTestHarness<String, Document, InferenceResult, Document> harness(
            boolean pooled) throws Exception {
        var h = new KeyedTwoInputStreamOperatorTestHarness<String, Document, InferenceResult, Document>(
                new KeyedCoProcessOperator<>(new SkipUnchangedFunction("m", "1", SETTINGS, pooled)),
                d -> d.id, r -> r.chunk.docId, Types.STRING);
        h.open();
        return h;
    }
}
