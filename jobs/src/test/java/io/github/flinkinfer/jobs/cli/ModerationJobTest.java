package io.github.flinkinfer.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.moderation.ModerationJsonEncoder;
import io.github.flinkinfer.jobs.moderation.ModerationResult;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModerationJobTest {
    @TempDir Path tmp;

    @Test
    void theSpamFilterIsModeratesDefaultModelAndAGivenModelWins() {
        ModerationJob plain = new ModerationJob();
        new picocli.CommandLine(plain).parseArgs("--input", "x.jsonl", "--output", "out");
        assertThat(plain.options.model).isEqualTo(ModerationJob.DEFAULT_MODEL);
        ModerationJob given = new ModerationJob();
        new picocli.CommandLine(given).parseArgs("--input", "x.jsonl", "--output", "out", "--model", "m.json");
        assertThat(given.options.model).isEqualTo("m.json");
    }

    @Test
    void verdictCarriesLabelScoresAndFlag() throws Exception {
        InferenceResult r = new InferenceResult();
        r.id = "m1";
        r.vector = new float[] {0.2f, 0.8f};
        r.model = "spam-assassin-minilm";
        r.modelVersion = "1";
        ModerationResult m = ModerationResult.of(r, ModelCard.resolve("spam-assassin-minilm").classification);
        assertThat(m.label).isEqualTo("spam");
        assertThat(m.score).isEqualTo(0.8f);
        assertThat(m.flagged).isTrue();
        assertThat(m.scoreOf("ham")).isEqualTo(0.2f);

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ModerationJsonEncoder().encode(m, bytes);
        String line = bytes.toString(StandardCharsets.UTF_8);
        assertThat(line).endsWith("\n");
        JsonNode json = new ObjectMapper().readTree(line);
        assertThat(json.get("id").asText()).isEqualTo("m1");
        assertThat(json.get("label").asText()).isEqualTo("spam");
        assertThat(json.get("scores").get("ham").floatValue()).isEqualTo(0.2f);
        assertThat(json.get("scores").get("spam").floatValue()).isEqualTo(0.8f);
        assertThat(json.get("flagged").asBoolean()).isTrue();
        assertThat(json.get("flagged_labels").get(0).asText()).isEqualTo("spam");
    }

    @Test
    void refusesAnEmbeddingModel() {
        RunOptions o = Jobs.options("--input", "x.jsonl", "--output", tmp.toString());
        assertThatThrownBy(() -> ModerationJob.run(o, StreamExecutionEnvironment.getExecutionEnvironment()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("classification model");
    }

    @Test
    void refusesEmbeddingOnlyOptions() {
        for (String[] extra : new String[][] {
                {"--doc-pooling", "MEAN"}, {"--previous-output", "old"}, {"--output-format", "pgvector-csv"}}) {
            RunOptions o = Jobs.options("--input", "x.jsonl", "--output", tmp.toString(),
                    "--model", ModerationJob.DEFAULT_MODEL, "--chunk-size", "64", extra[0], extra[1]);
            assertThatThrownBy(() -> ModerationJob.run(o, StreamExecutionEnvironment.getExecutionEnvironment()))
                    .as(extra[0])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(extra[0].equals("--output-format") ? "pgvector-csv" : extra[0]);
        }
    }
}
