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
 * A TaskManager dies while the committers run, after the last batch: Flink re-runs the writers
 * (their committables were on it), whose new part files the committers commit again; the receipt
 * step removes the part files of the earlier attempt that no final committer committed, so the
 * committed outputs still hold every id once. The kill waits for the first committed part file;
 * a run that ends before the kill lands is run again (up to five runs).
 */
class CommitWindowFailureITCase extends ClusterTestBase {

    @Test
    void aTaskManagerLostWhileCommittingLeavesEveryIdOnce(@InjectMiniCluster MiniCluster cluster) throws Exception {
        Map<String, String> corpus = Corpus.sample(2000);
        Path input = writeCorpus(corpus);
        for (int attempt = 0; attempt < 5; attempt++) {
            Path out = tmp.resolve("out-" + attempt);
            CompletableFuture<RunSummary> job = CompletableFuture.supplyAsync(() -> {
                try {
                    return MiniClusters.embed(Jobs.options("--input", input.toString(), "--output", out.toString(),
                            "--run-id", "cw", "--parallelism", "2", "--max-batch-tokens", "1024"));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!committedPart(out.resolve("embeddings")) && System.nanoTime() < deadline && !job.isDone()) {
                Thread.sleep(2);
            }
            if (job.isDone()) { // the window was missed: nothing was killed
                job.get();
                continue;
            }
            cluster.terminateTaskManager(0).get(30, TimeUnit.SECONDS);
            cluster.startTaskManager();

            RunSummary summary = job.get(300, TimeUnit.SECONDS);
            Outputs.assertEveryIdOnce(out, corpus.keySet());
            assertThat(summary.succeeded).isEqualTo(corpus.size());
            return;
        }
        throw new AssertionError("no run was still committing when its first part file appeared");
    }

    private static boolean committedPart(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith("part-"));
        }
    }
}
