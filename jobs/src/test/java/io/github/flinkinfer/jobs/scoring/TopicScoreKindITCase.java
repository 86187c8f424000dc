package io.github.flinkinfer.jobs.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.dataflow.TaskKinds;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.run.InferenceRun;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.ledger.RunLedger;
import io.github.flinkinfer.runtime.Vectors;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * A task kind added with one class ({@link TopicScoreKind}) and one registration line, run end to
 * end by the shared lifecycle on 2 TaskManagers: its rows come out in its own schema with the
 * scores its post-process defines, failed inputs still land in {@code errors/}, and the ledger
 * reconciles (the run commits).
 */
class TopicScoreKindITCase extends ClusterTestBase {
    @Test
    void theRegistryFindsTheKindBesideTheBuiltInOnes() {
        assertThat(TaskKinds.all()).extracting(TaskKind::name).containsExactly("embed", "moderate", "topic-score");
        assertThat(TaskKinds.named("topic-score")).isInstanceOf(TopicScoreKind.class);
    }

    @Test
    void aThirdKindRunsEndToEndWithItsOwnSchemaErrorsAndLedger() throws Exception {
        Map<String, String> good = Corpus.sample(60);
        Map<String, String> corpus = new LinkedHashMap<>(good);
        corpus.put("blank", "   ");
        corpus.put("nul", "a\0b");
        Path input = writeCorpus(corpus);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options("--input", input.toString(), "--output", out.toString(), "--run-id", "t",
                "--parallelism", "2", "--output-format", "jsonl", "--max-error-rate", "0.5");

        RunSummary summary = InferenceRun.execute(TaskKinds.named("topic-score"), o, o.environment(), null);

        List<JsonNode> rows = Outputs.jsonLines(out.resolve(TopicScoreKind.SCORES_DIR));
        assertThat(rows).extracting(r -> r.get("id").asText()).containsExactlyInAnyOrderElementsOf(good.keySet());
        for (JsonNode r : rows) {
            List<String> fields = new ArrayList<>();
            r.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("id", "score", "tokenCount");
        }
        var card = o.modelCard();
        float[] topic = TopicScoreKind.topicVector(card);
        try (TextTokenizer tokenizer = TextTokenizer.load(card, RuntimeOptions.defaults());
                OnnxModel model = OnnxModel.load(card, RuntimeOptions.defaults())) {
            for (JsonNode r : rows) {
                String text = good.get(r.get("id").asText());
                int[] ids = tokenizer.encode(text).ids();
                float[] vector = model.infer(List.of(ids)).vectors()[0];
                assertThat(r.get("score").floatValue()).as(r.get("id").asText())
                        .isCloseTo((float) Vectors.cosine(vector, topic), Offset.offset(1e-4f));
                assertThat(r.get("tokenCount").asInt()).isEqualTo(ids.length);
            }
        }
        assertThat(Outputs.jsonLines(out.resolve(FileOutputs.ERRORS_DIR)))
                .extracting(e -> e.get("id").asText() + " " + e.get("reason").asText())
                .containsExactlyInAnyOrder("blank empty_text", "nul nul_character");

        RunLedger ledger = RunLedger.fromJson(Files.readString(out.resolve("ledger-t.json")));
        assertThat(ledger.written).isEqualTo(60L);
        assertThat(ledger.succeeded).isEqualTo(60);
        assertThat(summary.succeeded).isEqualTo(60);
        assertThat(out.resolve("_SUCCESS-t")).as("the ledger reconciled, the run committed").exists();
    }
}
