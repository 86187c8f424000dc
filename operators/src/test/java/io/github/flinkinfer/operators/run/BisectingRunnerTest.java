package io.github.flinkinfer.operators.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ForwardingRuntime;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Faults injected through the {@link ModelRuntime} seam around the real fp32 model (batch-invariant, so survivors can be compared exactly): a poison
 * input fails any batch holding it, and batches over a padded-token limit fail as out of memory.
 */
class BisectingRunnerTest {
    static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2");
    static OnnxModel model;
    static TextTokenizer tokenizer;

    @BeforeAll
    static void load() {
        model = OnnxModel.load(CARD, RuntimeOptions.defaults());
        tokenizer = TextTokenizer.load(CARD, RuntimeOptions.defaults());
    }

    @AfterAll
    static void close() {
        model.close();
        tokenizer.close();
    }

    /** Decorates the real runtime with the two faults. */
    static final class Faulty extends ForwardingRuntime {
        private final int poisonToken;
        private final long maxPaddedTokens;

        Faulty(ModelRuntime real, int poisonToken, long maxPaddedTokens) {
            super(real);
            this.poisonToken = poisonToken;
            this.maxPaddedTokens = maxPaddedTokens;
        }

        @Override
        public Inference infer(List<int[]> batch) {
            int longest = batch.stream().mapToInt(ids -> ids.length).max().orElse(0);
            if ((long) longest * batch.size() > maxPaddedTokens) {
                throw InferenceException.from(new OutOfMemoryError("Failed to allocate memory for test"));
            }
            for (int[] ids : batch) {
                for (int id : ids) {
                    if (id == poisonToken) {
                        throw InferenceException.from(new IllegalStateException("poisoned input"));
                    }
                }
            }
            return delegate.infer(batch);
        }

        @Override
        public void close() {} // the shared model is closed once, after all tests
    }

    static TokenizedDocument doc(String id, String text) {
        return new TokenizedDocument(id, "t:" + id, tokenizer.encode(text).ids(), 0, 0);
    }

    @Test
    void poisonItemIsIsolatedAndOomBatchesAreSplit() {
        int poison = tokenizer.encode("poison").ids()[1];
        List<TokenizedDocument> batch = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            batch.add(doc("d" + i, i == 11 ? "this one carries poison inside" : "ordinary sentence number " + i));
        }
        // every input is ~6-7 tokens: 16 rows exceed 40 padded tokens, 4 rows do not
        BisectingRunner.Outcome out = new BisectingRunner(new Faulty(model, poison, 40)).run(batch);

        assertThat(out.succeeded).extracting(d -> d.id).hasSize(15).doesNotContain("d11");
        assertThat(out.failed).singleElement().satisfies(e -> {
            assertThat(e.id).isEqualTo("d11");
            assertThat(e.stage).isEqualTo("infer");
            assertThat(e.reason).isEqualTo("inference_failed");
            assertThat(e.attempt).isGreaterThan(1);
        });
        assertThat(out.retries()).isGreaterThan(4);
        // survivors' vectors are the real model's outputs
        float[] alone = model.infer(List.of(out.succeeded.get(0).tokenIds)).vectors()[0];
        assertThat(out.vectors.get(0)).containsExactly(alone, org.assertj.core.data.Offset.offset(1e-4f));
    }

    @Test
    void singleItemThatStillRunsOutOfMemoryIsReported() {
        BisectingRunner.Outcome out =
                new BisectingRunner(new Faulty(model, -1, 3)).run(List.of(doc("big", "too big to fit")));
        assertThat(out.succeeded).isEmpty();
        assertThat(out.failed).singleElement().satisfies(e -> assertThat(e.reason).isEqualTo("out_of_memory"));
    }
}
