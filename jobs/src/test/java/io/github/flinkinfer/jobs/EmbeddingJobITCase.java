package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The embedding job end to end on a MiniCluster with 2 TaskManagers, parallelism 2. */
class EmbeddingJobITCase {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = MiniClusters.twoTaskManagers();

    @TempDir Path tmp;

    @Test
    void everyInputIdIsWrittenExactlyOnceAndMetricsAddUp() throws Exception {
        Map<String, String> corpus = Corpus.sample(600);
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), corpus);
        Path out = tmp.resolve("out");
        EmbedOptions o = Jobs.options(
                "--input", input.toString(), "--output", out.toString(), "--run-id", "it",
                "--parallelism", "2", "--output-format", "parquet,jsonl");
        RunSummary summary = MiniClusters.embed(o);

        Map<String, GenericRecord> rows = Outputs.embeddings(out);
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        GenericRecord any = rows.values().iterator().next();
        assertThat(Outputs.vector(any)).hasSize(384);
        assertThat(any.get("model").toString()).isEqualTo("all-minilm-l6-v2");

        List<JsonNode> jsonl = Outputs.jsonLines(out.resolve("embeddings"));
        assertThat(jsonl).extracting(n -> n.get("id").asText())
                .containsExactlyInAnyOrderElementsOf(corpus.keySet());

        List<JsonNode> metrics = Outputs.jsonLines(out.resolve("metrics"));
        assertThat(metrics.stream().mapToLong(m -> m.get("items").asLong()).sum()).isEqualTo(600);
        assertThat(metrics).extracting(m -> m.get("subtask").asInt()).contains(0, 1);
        for (JsonNode m : metrics) {
            assertThat(m.get("paddedTokens").asLong()).isLessThanOrEqualTo(8192);
            assertThat(m.get("realTokens").asLong()).isLessThanOrEqualTo(m.get("paddedTokens").asLong());
            assertThat(m.get("totalMs").asDouble()).isGreaterThanOrEqualTo(m.get("inferenceMs").asDouble());
        }
        assertThat(summary.succeeded).isEqualTo(600);
        assertThat(summary.failed).isZero();
        assertThat(Outputs.hasInProgressFiles(out)).isFalse();
    }
}
