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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU placement on real TaskManagers: {@code start-cluster.sh --gpus 2} installs Flink's GPU
 * plugin ({@code flink-external-resource-gpu}) with a fake discovery script that reports GPUs 0
 * and 1 on each of two TaskManagers of four slots, Flink spreading slots over them
 * ({@code taskmanager.load-balance.mode: slots}), for a GPU shape: 8 tokenize subtasks feeding 4
 * inference subtasks. Which inference subtasks a TaskManager runs is Flink's choice and changes
 * from run to run (seen: 0 and 1, 0 and 3, 0 and 2); each TaskManager's must spread over its two
 * GPU indices ({@code auto:0}, {@code auto:1}) whatever their subtask indices (the index modulo
 * the GPUs gave subtasks 0 and 2 the first GPU both, in one run of three), fall back to CPU on
 * this machine, and finish the job.
 */
class StandaloneGpuDiscoveryITCase {
    private static final Pattern LOADED = Pattern.compile("Subtask (\\d+) loaded model \\S+ on cpu \\(requested (auto:\\d)\\)");

    @TempDir Path tmp;

    @Test
    void subtasksOfEachTaskManagerSpreadOverItsReportedGpusAndFallBackToCpu() throws Exception {
        Map<String, String> corpus = Corpus.sample(300);
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), corpus);
        Path discovery = Files.writeString(tmp.resolve("fake-gpu-discovery.sh"), "#!/bin/sh\necho 0,1\n");
        Files.setPosixFilePermissions(discovery, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = tmp.resolve("out");
        Path client = tmp.resolve("client.out");
        int loaded = 0;
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"),
                "-n", "2", "-s", "4", "--gpus", "2", "--gpu-discovery", discovery.toString(),
                "-D", "taskmanager.load-balance.mode=slots")) {
            Process job = cluster.submit(client,
                    "embed", "--input", input.toString(), "--output", out.toString(),
                    "--run-id", "gpu", "--parallelism", "4", "--tokenize-parallelism", "8",
                    "--model", "all-minilm-l6-v2-q", "--device", "auto");
            assertThat(job.waitFor(150, TimeUnit.SECONDS)).as("job still running after 150 s").isTrue();
            assertThat(job.exitValue())
                    .as("submit.sh failed:\n%s%s", Files.readString(client), cluster.logTails())
                    .isZero();
            for (String taskManager : List.of("taskmanager-1", "taskmanager-2")) {
                String log = Files.readString(cluster.log(taskManager));
                assertThat(log).as(taskManager).contains("Discover GPU resources");
                Map<String, String> gpuBySubtask = new TreeMap<>(); // a restarted subtask's last load
                LOADED.matcher(log).results().forEach(m -> gpuBySubtask.put(m.group(1), m.group(2)));
                loaded += gpuBySubtask.size();
                long first = gpuBySubtask.values().stream().filter("auto:0"::equals).count();
                long second = gpuBySubtask.values().stream().filter("auto:1"::equals).count();
                assertThat(first + second).as("%s: %s", taskManager, gpuBySubtask).isEqualTo(gpuBySubtask.size());
                assertThat(Math.abs(first - second)).as("%s spreads its subtasks over its GPUs: %s", taskManager,
                        gpuBySubtask).isLessThanOrEqualTo(1);
            }
        }
        assertThat(loaded).as("inference subtasks over both TaskManagers").isEqualTo(4);

        List<JsonNode> metrics = Outputs.jsonLines(out.resolve("metrics"));
        assertThat(metrics).isNotEmpty();
        Map<Integer, Set<String>> requestedBySubtask = new TreeMap<>();
        for (JsonNode m : metrics) {
            assertThat(m.get("device").asText()).isEqualTo("cpu");
            requestedBySubtask.computeIfAbsent(m.get("subtask").asInt(), k -> new TreeSet<>())
                    .add(m.get("deviceRequested").asText());
        }
        assertThat(requestedBySubtask).as("one GPU per subtask").hasSize(4)
                .allSatisfy((subtask, requested) -> assertThat(requested).hasSize(1));
        assertThat(requestedBySubtask.values().stream().flatMap(Set::stream).distinct().sorted().toList())
                .containsExactly("auto:0", "auto:1");
        assertThat(Outputs.embeddings(out).keySet()).isEqualTo(corpus.keySet());
    }
}
