package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;

/** Test helpers for Kafka jobs: a small fast corpus, the fast model's options, async runs. */
final class KafkaJobs {
    private KafkaJobs() {}

    /** {@code n} JSON values {@code {"id":"<prefix>-i","text":"..."}}: short texts, unique ids. */
    static List<String> corpus(String prefix, int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> "{\"id\":\"" + prefix + "-" + i + "\",\"text\":\"short note " + i
                        + " about " + (i % 7 == 0 ? "rivers" : "mountains") + "\"}")
                .toList();
    }

    /** The fast settings every Kafka ITCase uses (int8 model, 32 tokens), then {@code extra}. */
    static List<String> args(String bootstrap, String... extra) {
        List<String> a = new ArrayList<>(List.of(
                "--kafka-bootstrap-servers", bootstrap, "--model", "all-minilm-l6-v2-q",
                "--max-length", "32", "--bucket-edges", "16,32", "--max-batch-tokens", "2048",
                "--parallelism", "2", "--restart-attempts", "3"));
        a.addAll(List.of(extra));
        return a;
    }

    static CompletableFuture<RunSummary> startAsync(RunOptions o) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return MiniClusters.embed(o);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Waits until a task whose name contains {@code name} of the running job is running or done. */
    static JobID awaitTask(MiniCluster mini, String name, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (JobStatusMessage job : mini.listJobs().get()) {
                if (job.getJobState().isGloballyTerminalState()) {
                    continue;
                }
                for (AccessExecutionVertex v :
                        mini.getExecutionGraph(job.getJobId()).get().getAllExecutionVertices()) {
                    ExecutionState s = v.getExecutionState();
                    if (v.getTaskNameWithSubtaskIndex().contains(name)
                            && (s == ExecutionState.RUNNING || s == ExecutionState.FINISHED)) {
                        return job.getJobId();
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no running task named " + name);
    }
}
