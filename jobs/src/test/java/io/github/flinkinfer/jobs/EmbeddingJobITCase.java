package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** The embedding job end to end on a MiniCluster with 2 TaskManagers, parallelism 2. */
class EmbeddingJobITCase extends ClusterTestBase {
    @Test
    void everyInputIdIsWrittenExactlyOnceAndMetricsAddUp() throws Exception {
        Map<String, String> corpus = Corpus.sample(600);
        Path input = writeCorpus(corpus);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(
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

    /**
     * Model calls on their own thread ({@code --overlap ON}), in STREAMING with frequent
     * checkpoints (in-flight batches drain before each barrier) and small batches, give the same
     * ids and the same vectors as the plain BATCH run.
     */
    @Test
    void overlappedInferenceMatchesThePlainRunAcrossCheckpoints() throws Exception {
        Map<String, String> corpus = Corpus.sample(400);
        Path input = writeCorpus(corpus);
        Path plain = tmp.resolve("plain");
        Path overlapped = tmp.resolve("overlapped");
        MiniClusters.embed(Jobs.options("--input", input.toString(), "--output", plain.toString(),
                "--run-id", "plain", "--parallelism", "2", "--overlap", "OFF"));
        RunSummary summary = MiniClusters.embed(Jobs.options("--input", input.toString(),
                "--output", overlapped.toString(), "--run-id", "overlap", "--parallelism", "2",
                "--overlap", "ON", "--max-batch-tokens", "512", "--runtime-mode", "STREAMING",
                "--checkpoint-interval-ms", "100"));

        Map<String, GenericRecord> a = Outputs.embeddings(plain);
        Map<String, GenericRecord> b = Outputs.embeddings(overlapped);
        assertThat(b.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        for (String id : corpus.keySet()) {
            assertThat(io.github.flinkinfer.runtime.Vectors.cosine(
                    Outputs.vector(a.get(id)), Outputs.vector(b.get(id)))).as(id).isGreaterThan(0.9999);
        }
        List<JsonNode> metrics = Outputs.jsonLines(overlapped.resolve("metrics"));
        assertThat(metrics.stream().mapToLong(m -> m.get("items").asLong()).sum()).isEqualTo(400);
        assertThat(metrics.size()).isGreaterThan(10); // many batches, so several were in flight
        assertThat(summary.succeeded).isEqualTo(400);
        assertThat(Outputs.hasInProgressFiles(overlapped)).isFalse();
        // in STREAMING the receipt follows the final checkpoint's commit of every committer subtask
        assertThat(overlapped.resolve("embeddings/_committed-overlap.write-embeddings-parquet-0-of-1"))
                .as("receipt").content().contains("\"committers\":2");
        assertThat(overlapped.resolve("metrics/_committed-overlap.write-metrics-0-of-1")).as("one metrics writer")
                .content().contains("\"committers\":1");
    }
}
