package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure test on a real multi-process cluster: a JobManager and two TaskManagers started by
 * {@code deploy/standalone/start-cluster.sh}, the job jar submitted with {@code submit.sh}, and
 * one TaskManager {@code kill -9}ed while it runs inference. A replacement TaskManager joins;
 * the job must still finish with every input id exactly once in the outputs or the errors, and
 * a manifest that counts each once.
 */
class StandaloneClusterITCase {
    @TempDir Path tmp;

    @Test
    void jobSurvivesATaskManagerKilledMidJob() throws Exception {
        Set<String> inputIds = Corpus.sample(Integer.MAX_VALUE).keySet();
        Path out = tmp.resolve("out");
        Path client = tmp.resolve("client.out");
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), "-n", "2")) {
            Process job = cluster.submit(client,
                    "embed", "--input", Corpus.SAMPLE.toString(), "--output", out.toString(),
                    "--run-id", "x", "--parallelism", "2", "--model", "all-minilm-l6-v2-q",
                    // A lost TaskManager costs up to two attempts in BATCH mode: its task, then
                    // the upstream results it held (docs/operations.md).
                    "--restart-attempts", "5");

            // Mid-job: inference has written its first results somewhere, nothing is committed yet
            // (not the metrics: their one writer gets the rows when a network buffer fills)
            cluster.awaitMidJob(job, client, 120, "no result written", () -> inProgress(out.resolve("embeddings")));
            List<String> running = cluster.processesLogging("loaded model");
            assertThat(running).isNotEmpty();
            cluster.killHard(running.get(0));
            cluster.startTaskManager();

            cluster.assertJobRecovered(job, client, 150);
        }

        Outputs.assertEveryIdOnce(out, inputIds);
        // The writers killed with the TaskManager never close their in-progress files and
        // FileSink does not remove them in BATCH mode; the driver deletes them after success.
        try (var walked = Files.walk(out)) {
            assertThat(walked.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".inprogress"));
        }
        assertThat(Files.readString(client)).contains("== run x");
        // The manifest counts each input once, though attempts of the killed TaskManager's tasks
        // ran some of them before (issue 22: rolled-back attempts do not add).
        com.fasterxml.jackson.databind.JsonNode manifest = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.resolve("_SUCCESS-x").toFile());
        assertThat(manifest.at("/reconciliation/ok").asBoolean()).isTrue();
        assertThat(manifest.at("/ledger/parsed").asLong()).isEqualTo(inputIds.size());
        assertThat(manifest.at("/ledger/succeeded").asLong()).isEqualTo(inputIds.size());
        assertThat(manifest.at("/ledger/written").asLong()).isEqualTo(inputIds.size());
    }

    private static boolean inProgress(Path dir) throws Exception {
        return Files.isDirectory(dir) && !inProgressFiles(dir).isEmpty();
    }

    private static List<String> inProgressFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.contains(".inprogress")).toList();
        }
    }
}
