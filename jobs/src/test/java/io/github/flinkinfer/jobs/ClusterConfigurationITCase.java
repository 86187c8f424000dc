package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.run.FlinkDefaults;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.FlinkRunContext;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.ArchivedExecutionConfig;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's configuration wins over the job's defaults: submitted as {@code flink run} does
 * (a context environment with the cluster configuration), the running job's restart strategy is
 * read back from its JobMaster, the adaptive-parallelism setting from the job's environment.
 */
class ClusterConfigurationITCase {
    @TempDir Path tmp;

    @Test
    void theClusterConfigurationWinsAndOurDefaultsFillTheRest() throws Exception {
        Configuration cluster = new Configuration();
        cluster.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        cluster.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, true);
        Run configured = run(cluster, "configured");
        assertThat(configured.restartStrategy()).containsIgnoringCase("exponential");
        assertThat(configured.adaptiveParallelism()).isTrue();

        Run bare = run(new Configuration(), "bare");
        assertThat(bare.restartStrategy()).containsIgnoringCase("fixed delay")
                .contains(String.valueOf(FlinkDefaults.RESTART_ATTEMPTS));
        assertThat(bare.adaptiveParallelism()).isFalse();

        Run explicit = run(cluster, "explicit", "--restart-attempts", "2");
        assertThat(explicit.restartStrategy()).as("an explicit job option is the user's word for this run")
                .containsIgnoringCase("fixed delay").contains("2");
    }

    record Run(String restartStrategy, boolean adaptiveParallelism) {}

    private Run run(Configuration clusterConfiguration, String runId, String... extra) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve(runId + ".jsonl"), Corpus.sample(20));
        Path out = tmp.resolve(runId);
        MiniClusterConfiguration mc = new MiniClusterConfiguration.Builder()
                .setConfiguration(clusterConfiguration).setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build();
        try (MiniCluster cluster = new MiniCluster(mc)) {
            cluster.start();
            FlinkRunContext.install(cluster, clusterConfiguration);
            try {
                String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of(
                        "--input", input.toString(), "--output", out.toString(), "--run-id", runId,
                        "--parallelism", "2", "--progress-seconds", "0"), java.util.stream.Stream.of(extra))
                        .toArray(String[]::new);
                RunOptions o = Jobs.options(args);
                StreamExecutionEnvironment env = o.environment();
                boolean adaptive = env.getConfiguration().get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED);
                EmbeddingJob.run(o, env);
                JobID job = JobID.fromHexString(new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(out.resolve("_SUCCESS-" + runId).toFile()).path("jobId").asText()); // the manifest names it
                ArchivedExecutionConfig executed = cluster.getArchivedExecutionGraph(job).get().getArchivedExecutionConfig();
                return new Run(executed.getRestartStrategyDescription(), adaptive);
            } finally {
                FlinkRunContext.uninstall();
            }
        }
    }
}
