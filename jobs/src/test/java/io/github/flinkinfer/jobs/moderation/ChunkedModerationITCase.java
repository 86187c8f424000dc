package io.github.flinkinfer.jobs.moderation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * {@code moderate --chunk-size}: long emails are judged by all their 126-token windows instead of
 * their first 128 tokens. Checked against the truncating run on the same held-out emails: one
 * verdict per email under both policies; since a document's first window is exactly the
 * truncated input, an email flagged by truncation stays flagged under WORST and a one-window
 * email keeps its scores under both; MEAN never flags what WORST does not (a mean ≤ the max).
 */
class ChunkedModerationITCase extends ClusterTestBase {
    @Test
    void everyEmailGetsOneVerdictFromItsWorstWindow() throws Exception {
        Path input = tmp.resolve("emails.jsonl");
        Files.write(input, Files.readAllLines(SpamAssassinSplit.heldOut()).subList(0, 80));
        Map<String, JsonNode> truncated = run(input, "truncated", DocVerdictFunction.Policy.MEAN);
        Map<String, JsonNode> chunked = run(input, "worst", DocVerdictFunction.Policy.WORST,
                "--chunk-size", "126", "--chunk-overlap", "16");
        Map<String, JsonNode> mean = run(input, "mean", DocVerdictFunction.Policy.MEAN,
                "--chunk-size", "126", "--chunk-overlap", "16");
        assertThat(mean.keySet()).isEqualTo(truncated.keySet());
        for (Map.Entry<String, JsonNode> e : mean.entrySet()) {
            JsonNode m = e.getValue();
            if (m.get("flagged").asBoolean()) {
                assertThat(chunked.get(e.getKey()).get("flagged").asBoolean()).as(e.getKey()).isTrue();
            }
            if (m.get("chunk_count").asInt() == 1) {
                assertThat(m.get("scores").get("spam").asDouble())
                        .isCloseTo(truncated.get(e.getKey()).get("scores").get("spam").asDouble(), within(1e-4));
            } else {
                assertThat(m.get("deciding_chunk").asInt()).isEqualTo(-1);
            }
        }

        assertThat(chunked.keySet()).isEqualTo(truncated.keySet()).hasSize(80);
        int multiWindow = 0;
        for (Map.Entry<String, JsonNode> e : chunked.entrySet()) {
            JsonNode c = e.getValue();
            JsonNode t = truncated.get(e.getKey());
            int windows = c.get("chunk_count").asInt();
            assertThat(windows).isPositive();
            assertThat(c.get("deciding_chunk").asInt()).isBetween(0, windows - 1);
            if (t.get("flagged").asBoolean()) {
                assertThat(c.get("flagged").asBoolean()).as(e.getKey()).isTrue();
            }
            if (windows == 1) {
                assertThat(c.get("scores").get("spam").asDouble())
                        .isCloseTo(t.get("scores").get("spam").asDouble(), within(1e-4));
            } else {
                multiWindow++;
                assertThat(c.get("token_count").asInt()).isGreaterThan(126);
            }
        }
        assertThat(multiWindow).isGreaterThan(10); // the point: long emails are read past 128 tokens
    }

    private Map<String, JsonNode> run(Path input, String name, DocVerdictFunction.Policy policy, String... extra)
            throws Exception {
        Path out = tmp.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("--input", input.toString(),
                "--output", out.toString(), "--run-id", name, "--model", ModerationJob.DEFAULT_MODEL,
                "--parallelism", "2", "--output-format", "jsonl", "--progress-seconds", "0"));
        args.addAll(List.of(extra));
        RunOptions o = Jobs.options(args.toArray(String[]::new));
        var summary = ModerationJob.run(
                o, policy, o.environment());
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
        Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode n : Outputs.jsonLines(out.resolve(ModerationTask.RESULTS_DIR))) {
            assertThat(byId.put(n.get("id").asText(), n)).as("duplicate").isNull();
        }
        assertThat(summary).isNotNull();
        if (extra.length > 0) { // chunked: windows are the items, documents are counted apart
            assertThat(summary.documents).isEqualTo(80L);
            assertThat(summary.succeeded).isGreaterThan(80);
        } else {
            assertThat(summary.documents).isNull();
        }
        return byId;
    }
}
