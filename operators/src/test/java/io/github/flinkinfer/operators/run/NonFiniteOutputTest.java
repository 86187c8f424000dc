package io.github.flinkinfer.operators.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.run.BatchInferenceOperator.Overlap;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.ContentHash;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.run.BatchInferenceOperator.Overlap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ONNX graph that emits NaN (under 4 tokens) and +Infinity (exactly 5 tokens) for some
 * inputs, run through the operator in Flink's harness: those inputs become {@code
 * non_finite_output} error rows, their batch-mates results, and every batch's metrics row counts
 * its failed items, so results + errors = items.
 */
class NonFiniteOutputTest {
    @TempDir Path dir;

    /** n tokens: [CLS] n-2 word pieces [SEP]. */
    static TokenizedDocument doc(int n) {
        int[] ids = new int[n];
        Arrays.fill(ids, 2000);
        ids[0] = 101;
        ids[n - 1] = 102;
        return new TokenizedDocument("n" + n, "f:" + n, ids, n, 0);
    }

    /** The text document {@code id} stood for before the tokenizer dropped it. */
    static String text(String id) {
        return "the text of document " + id + " (é)";
    }

    @Test
    void nonFiniteOutputsAreErrorRowsAndTheirBatchMatesResults() throws Exception {
        ModelRuntimeFactory model = NonFiniteModel.write(dir);
        List<TokenizedDocument> docs = new ArrayList<>();
        for (int n = 2; n <= 9; n++) {
            TokenizedDocument d = doc(n);
            d.chunk = ChunkRef.of(d.id, text(d.id), "s"); // as the tokenizer hands it on
            docs.add(d);
        }
        try (OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> h =
                BatchInferenceOperatorTest.harness(model, BatchInferenceOperatorTest.batching(4, 1, 0), Overlap.OFF)) {
            h.open();
            BatchInferenceOperatorTest.feed(h, docs);
            h.endInput();

            assertThat(BatchInferenceOperatorTest.ids(h)).containsExactlyInAnyOrder("n4", "n6", "n7", "n8", "n9");
            for (InferenceResult r : h.extractOutputValues()) {
                for (float v : r.vector) {
                    assertThat(Float.isFinite(v)).as(r.id).isTrue();
                }
                assertThat(r.vector[0]).isEqualTo(r.tokenCount); // the graph's own output, not a copy
            }
            List<ErrorRecord> errors = BatchInferenceOperatorTest.errors(h);
            assertThat(errors).extracting(e -> e.id).containsExactlyInAnyOrder("n2", "n3", "n5");
            assertThat(errors).allSatisfy(e -> {
                assertThat(e.reason).isEqualTo(ErrorReason.NON_FINITE_OUTPUT.code());
                assertThat(e.stage).isEqualTo(ErrorRecord.POSTPROCESS);
                assertThat(e.attempt).isGreaterThan(1); // re-run alone before it failed
                assertThat(e.source).isEqualTo("f:" + e.id.substring(1));
                // named by the input's length and hash, as a parse error is, to join back to the corpus
                assertThat(e.inputLength).isEqualTo(text(e.id).length());
                assertThat(e.inputSha256).isEqualTo(ContentHash.sha256(text(e.id)));
            });
            assertThat(errors).filteredOn(e -> e.id.equals("n5")).singleElement()
                    .satisfies(e -> assertThat(e.message).contains("Infinity"));
            List<BatchMetrics> metrics = BatchInferenceOperatorTest.metrics(h);
            assertThat(metrics.stream().mapToInt(m -> m.items).sum()).isEqualTo(docs.size());
            assertThat(metrics.stream().mapToInt(m -> m.failedItems).sum()).isEqualTo(3);
            for (BatchMetrics m : metrics) {
                assertThat(m.retries).isEqualTo(m.failedItems); // one solo re-run per non-finite item
            }
        }
    }
}
