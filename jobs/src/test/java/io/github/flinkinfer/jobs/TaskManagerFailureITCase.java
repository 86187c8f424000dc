package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.Test;

/**
 * A TaskManager dies mid-job: the job restarts the lost work on a replacement TaskManager and
 * finishes; committed outputs ∪ errors hold every input id exactly once, no in-progress files.
 */
class TaskManagerFailureITCase extends ClusterTestBase {

    @Test
    void jobSurvivesALostTaskManagerWithEveryIdOnce(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Map<String, String> corpus = Corpus.sample(2000);
        Path input = writeCorpus(corpus);
        Path out = tmp.resolve("out");
        CompletableFuture<RunSummary> job = CompletableFuture.supplyAsync(() -> {
            try {
                return MiniClusters.embed(Jobs.options(
                        "--input", input.toString(), "--output", out.toString(), "--run-id", "tmkill",
                        "--parallelism", "2", "--max-batch-tokens", "1024"));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        // Wait until inference has written results (in-progress embeddings files), then kill.
        // Not the metrics: their one writer gets the rows when a network buffer fills, near the end.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!hasFiles(out.resolve("embeddings")) && System.nanoTime() < deadline && !job.isDone()) {
            Thread.sleep(100);
        }
        assertThat(job).as("job still running when the TaskManager is killed").isNotDone();
        cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
        cluster.startTaskManager();

        RunSummary summary = job.get(300, TimeUnit.SECONDS);
        Outputs.assertEveryIdOnce(out, corpus.keySet());
        assertThat(summary.succeeded).isEqualTo(corpus.size());
        assertThat(Outputs.hasInProgressFiles(out)).isFalse();
    }

    private static boolean hasFiles(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isPresent();
        }
    }
}
