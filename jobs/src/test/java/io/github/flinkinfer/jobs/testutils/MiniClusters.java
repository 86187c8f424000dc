package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** MiniCluster set-ups shared by the ITCases. */
public final class MiniClusters {
    private MiniClusters() {}

    /** Two TaskManagers with one slot each: subtasks really run in different TaskManagers. */
    public static MiniClusterExtension twoTaskManagers() {
        return twoTaskManagers(new Configuration());
    }

    /** Two TaskManagers with one slot each, with this cluster configuration (e.g. reporters). */
    public static MiniClusterExtension twoTaskManagers(Configuration configuration) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(configuration)
                        .setNumberTaskManagers(2)
                        .setNumberSlotsPerTaskManager(1)
                        .build());
    }

    /** Two TaskManagers with two slots each: four readers in two processes (split inputs). */
    public static MiniClusterExtension fourSlotsInTwoTaskManagers() {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(2)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }

    /** Runs the embedding job on the test cluster exactly as the CLI would. */
    public static RunSummary embed(RunOptions o) throws Exception {
        return EmbeddingJob.run(
                o, o.environment());
    }
}
