package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU placement on a real TaskManager: {@code start-cluster.sh --gpus 2} installs Flink's GPU
 * plugin ({@code flink-external-resource-gpu}) with a fake discovery script that reports GPUs 0
 * and 1. Each inference subtask must be placed on its own GPU index ({@code auto:0},
 * {@code auto:1}), fall back to CPU on this machine, and finish the job.
 */
class StandaloneGpuDiscoveryITCase {
    @TempDir Path tmp;

    @Test
    void subtasksArePlacedOnTheReportedGpusAndFallBackToCpu() throws Exception {
        Map<String, String> corpus = Corpus.sample(300);
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), corpus);
        Path discovery = Files.writeString(tmp.resolve("fake-gpu-discovery.sh"), "#!/bin/sh\necho 0,1\n");
        Files.setPosixFilePermissions(discovery, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = tmp.resolve("out");
        Path client = tmp.resolve("client.out");
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"),
                "-n", "1", "-s", "2", "--gpus", "2", "--gpu-discovery", discovery.toString())) {
            Process job = cluster.submit(client,
                    "embed", "--input", input.toString(), "--output", out.toString(),
                    "--run-id", "gpu", "--parallelism", "2", "--model", "all-minilm-l6-v2-q",
                    "--device", "auto");
            assertThat(job.waitFor(150, TimeUnit.SECONDS)).as("job still running after 150 s").isTrue();
            assertThat(job.exitValue())
                    .as("submit.sh failed:\n%s%s", Files.readString(client), cluster.logTails())
                    .isZero();
            String taskManagerLog = Files.readString(cluster.log("taskmanager-1"));
            assertThat(taskManagerLog)
                    .contains("Discover GPU resources")
                    .contains("on cpu (requested auto:0)")
                    .contains("on cpu (requested auto:1)");
        }

        List<JsonNode> metrics = Outputs.jsonLines(out.resolve("metrics"));
        assertThat(metrics).isNotEmpty();
        for (JsonNode m : metrics) {
            assertThat(m.get("device").asText()).isEqualTo("cpu");
            assertThat(m.get("deviceRequested").asText()).isEqualTo("auto:" + m.get("subtask").asInt());
        }
        assertThat(metrics).extracting(m -> m.get("deviceRequested").asText())
                .containsOnly("auto:0", "auto:1")
                .contains("auto:0", "auto:1");
        assertThat(Outputs.embeddings(out).keySet()).isEqualTo(corpus.keySet());
    }
}
