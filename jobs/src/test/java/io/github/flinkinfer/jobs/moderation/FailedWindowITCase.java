package io.github.flinkinfer.jobs.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.run.ForwardingFactory;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Chunked runs where a window fails (the real model behind a runtime that fails every batch
 * holding the token "poison", so bisecting leaves exactly the poisoned windows failed): each
 * such document is ONE {@code window_failed} error row and gets no verdict (moderation) and no
 * pooled row (embeddings, {@code --doc-pooling mean}); the other documents are unaffected, and
 * no window-level error row is left in the errors output.
 */
class FailedWindowITCase extends ClusterTestBase {
    static final String FILLER = "meeting notes about the build schedule for next week ";

    static Map<String, String> corpus() {
        Map<String, String> docs = new LinkedHashMap<>();
        docs.put("long-poisoned", FILLER.repeat(30) + "poison " + FILLER.repeat(10));
        docs.put("long-clean", FILLER.repeat(40));
        docs.put("short", "a short clean mail about lunch");
        docs.put("short-poison", "poison in its only window");
        return docs;
    }

    @Test
    void moderationGivesOneDocumentErrorPerDocumentWithAFailedWindow() throws Exception {
        Path out = run("moderation", new ModerationTask(DocVerdictFunction.Policy.WORST),
                "--model", ModerationJob.DEFAULT_MODEL, "--chunk-size", "64", "--output-format", "jsonl");
        List<String> verdicts = Outputs.jsonLines(out.resolve(ModerationTask.RESULTS_DIR)).stream()
                .map(n -> n.get("id").asText()).toList();
        assertThat(verdicts).containsExactlyInAnyOrder("long-clean", "short");
        assertDocumentErrors(out);
    }

    @Test
    void pooledEmbeddingsGiveOneDocumentErrorAndNoPooledRow() throws Exception {
        Path out = run("embedding", new EmbeddingTask(), "--chunk-size", "64", "--doc-pooling", "MEAN");
        Map<String, ?> rows = Outputs.embeddings(out);
        assertThat(rows).containsKeys("long-clean", "short", "long-clean#0", "long-poisoned#0")
                .doesNotContainKeys("long-poisoned", "short-poison");
        assertDocumentErrors(out);
    }

    /**
     * Issue 40: an input that fails in inference (no chunking: its own row, infer/inference_failed)
     * is named by its length and sha256 like a parse error, to be joined back to the corpus.
     */
    @Test
    void inferenceErrorRowsCarryTheInputsLengthAndHash() throws Exception {
        Path out = run("unchunked", new EmbeddingTask());
        // truncated to the model's length, long-poisoned loses its poison (past 270 tokens)
        assertThat(Outputs.embeddings(out)).containsOnlyKeys("long-clean", "short", "long-poisoned");
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        assertThat(errors).extracting(e -> e.get("id").asText()).containsExactly("short-poison");
        for (JsonNode e : errors) {
            assertThat(e.get("stage").asText() + "/" + e.get("reason").asText()).isEqualTo("infer/inference_failed");
            assertNamesItsInput(e);
        }
    }

    /** The row's inputLength and inputSha256 are those of its document's text. */
    private static void assertNamesItsInput(JsonNode e) {
        String text = corpus().get(e.get("id").asText());
        assertThat(e.get("inputLength").asLong()).as("inputLength").isEqualTo(text.length());
        assertThat(e.get("inputSha256").asText()).as("inputSha256")
                .isEqualTo(io.github.flinkinfer.operators.chunk.ContentHash.sha256(text));
    }

    private static void assertDocumentErrors(Path out) {
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        assertThat(errors).extracting(e -> e.get("id").asText())
                .containsExactlyInAnyOrder("long-poisoned", "short-poison");
        for (JsonNode e : errors) {
            assertThat(e.get("stage").asText() + "/" + e.get("reason").asText()).isEqualTo("infer/window_failed");
            assertThat(e.get("message").asText()).startsWith("1 of ").contains("(inference_failed)");
            assertThat(e.get("source").asText()).endsWith("corpus.jsonl@" + offsetOf(e.get("id").asText(), out));
            assertNamesItsInput(e);
        }
        assertThat(errors.stream().filter(e -> e.get("id").asText().equals("long-poisoned")).findFirst().orElseThrow()
                .get("message").asText()).matches("1 of [2-9] windows failed .*");
        assertThat(errors.stream().filter(e -> e.get("id").asText().equals("short-poison")).findFirst().orElseThrow()
                .get("message").asText()).startsWith("1 of 1 windows failed (inference_failed); first: window 0");
    }

    /** The byte offset of {@code id}'s line in the run's {@code corpus.jsonl} (beside {@code out}). */
    private static long offsetOf(String id, Path out) {
        try {
            String corpus = java.nio.file.Files.readString(out.resolveSibling("corpus.jsonl"));
            int at = corpus.indexOf("\"id\":\"" + id + "\"");
            return corpus.lastIndexOf('\n', at) + 1; // ASCII: chars are bytes
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Path run(String name, TaskKind<?> task, String... extra) throws Exception {
        Path input = writeCorpus(corpus());
        Path out = tmp.resolve(name);
        RunOptions o = Jobs.options(new String[] {"--input", input.toString(), "--output", out.toString(),
                "--run-id", name, "--parallelism", "2", "--max-error-rate", "1.0"}, extra); // failures on purpose
        o.validate();
        ModelCard card = o.modelCard();
        int poison;
        try (TextTokenizer t = TextTokenizer.load(card, RuntimeOptions.defaults())) {
            poison = t.encode("poison").ids()[1];
        }
        StreamExecutionEnvironment env = o.environment();
        env.setParallelism(o.parallelism);
        InferencePipeline.build(env, o.spec(task.name(), env),
                new Poisoned(ModelRuntimeFactory.onnx(card, o.runtimeOptions()), poison), task);
        env.execute("failed window " + name);
        return out;
    }

    /** Fails every batch that holds {@code token}, as a runtime failing on one input would. */
    static final class Poisoned extends ForwardingFactory {
        private static final long serialVersionUID = 1L;
        private final int token;

        Poisoned(ModelRuntimeFactory delegate, int token) {
            super(delegate);
            this.token = token;
        }

        @Override
        protected void beforeInfer(List<int[]> batch) {
            for (int[] ids : batch) {
                for (int id : ids) {
                    if (id == token) {
                        throw InferenceException.from(new IllegalStateException("poisoned window"));
                    }
                }
            }
        }
    }
}
