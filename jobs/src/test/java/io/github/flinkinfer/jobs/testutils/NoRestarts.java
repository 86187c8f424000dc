package io.github.flinkinfer.jobs.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.apache.flink.runtime.scheduler.exceptionhistory.RootExceptionHistoryEntry;

/**
 * Asserts from Flink's own record of a job that it failed once and was not restarted: one entry
 * in its exception history, classified through {@link NonRecoverableLoadException}, and every
 * task on its first attempt.
 *
 * <pre>{@code
 * NoRestarts.assertFailedOnce(cluster, "run-id", ModelIntegrityException.class);
 * }</pre>
 */
public final class NoRestarts {
    private NoRestarts() {}

    /** The failed job of run {@code runId} (job name "... run <id>") failed once, {@code cause} in its chain. */
    public static void assertFailedOnce(MiniCluster cluster, String runId, Class<? extends Throwable> cause)
            throws Exception {
        ExecutionGraphInfo job = cluster.getExecutionGraphInfo(failedJob(cluster, runId)).get();
        List<RootExceptionHistoryEntry> failures = new ArrayList<>();
        job.getExceptionHistory().forEach(failures::add);
        assertThat(failures).as("one failure: none was followed by a restart").singleElement()
                .satisfies(f -> assertThat(chain(f.getException().deserializeError(NoRestarts.class.getClassLoader())))
                        .as("Flink classified it through")
                        .hasAtLeastOneElementOfType(NonRecoverableLoadException.class)
                        .hasAtLeastOneElementOfType(cause));
        List<Integer> attempts = new ArrayList<>();
        for (AccessExecutionVertex v : job.getArchivedExecutionGraph().getAllExecutionVertices()) {
            attempts.add(v.getCurrentExecutionAttempt().getAttemptNumber());
        }
        assertThat(attempts).as("every task ran its first attempt only").isNotEmpty().containsOnly(0);
    }

    private static JobID failedJob(MiniCluster cluster, String runId) throws Exception {
        List<JobStatusMessage> jobs = cluster.listJobs().get().stream()
                .filter(j -> j.getJobName().endsWith(" run " + runId)).toList();
        assertThat(jobs).singleElement().extracting(JobStatusMessage::getJobState).isEqualTo(JobStatus.FAILED);
        return jobs.get(0).getJobId();
    }

    private static List<Throwable> chain(Throwable t) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }
}
