package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.io.ByteRangeEnumerator;
import io.github.flinkinfer.jobs.spec.Secrets;
import io.github.flinkinfer.jobs.testutils.Jobs;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

/** Our Flink defaults fill only what the cluster configuration leaves unset. */
class FlinkDefaultsTest {
    private static final RunOptions PLAIN = Jobs.options("--input", "x", "--output", "y");

    @Test
    void anEmptyClusterConfigurationGetsEveryDefault() {
        Configuration d = FlinkDefaults.defaults(new Configuration(), PLAIN.runtimeMode, PLAIN.restartAttempts);
        assertThat(d.get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(d.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
        assertThat(d.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS)).isEqualTo(5);
        assertThat(d.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED)).isFalse();
        assertThat(d.get(PipelineOptions.GENERIC_TYPES)).isFalse();
        assertThat(d.get(PipelineOptions.OBJECT_REUSE)).isTrue();
        assertThat(d.get(DeploymentOptions.ATTACHED)).isTrue();
    }

    @Test
    void whatTheClusterSetsIsLeftAlone() {
        Configuration cluster = new Configuration();
        cluster.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        cluster.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        cluster.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, true);
        cluster.set(PipelineOptions.GENERIC_TYPES, true);
        cluster.set(PipelineOptions.OBJECT_REUSE, false);
        cluster.set(DeploymentOptions.ATTACHED, false); // flink run --detached
        assertThat(FlinkDefaults.defaults(cluster, PLAIN.runtimeMode, PLAIN.restartAttempts).toMap()).isEmpty();
    }

    @Test
    void explicitJobOptionsWinOverTheCluster() {
        Configuration cluster = new Configuration();
        cluster.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        cluster.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        RunOptions explicit = Jobs.options("--input", "x", "--output", "y",
                "--runtime-mode", "batch", "--restart-attempts", "2");
        Configuration d = FlinkDefaults.defaults(cluster, explicit.runtimeMode, explicit.restartAttempts);
        assertThat(d.get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(d.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS)).isEqualTo(2);
    }

    /** {@code -D} on the command line, as {@code flink run -D}: over our defaults, under the explicit options. */
    @Test
    void dashDSetsFlinkOptionsForTheRunAndTheEmbeddedCluster() {
        RunOptions o = Jobs.options("--input", "x", "--output", "y", "-Dinference.input.split-size=64kb",
                "-Dpipeline.object-reuse=false", "-Dtaskmanager.memory.network.max=1gb",
                "-D", "restart-strategy.type=none");
        ReadableConfig c = o.environment().getConfiguration();

        assertThat(c.get(ByteRangeEnumerator.SPLIT_SIZE)).isEqualTo(MemorySize.parse("64kb"));
        assertThat(c.get(PipelineOptions.OBJECT_REUSE)).isFalse();
        assertThat(c.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("none");
        assertThat(TaskManagerNetwork.configured(c)).as("the embedded cluster keeps the user's network memory").isTrue();
        assertThat(c.get(ExecutionOptions.RUNTIME_MODE)).as("our default where -D is silent")
                .isEqualTo(RuntimeExecutionMode.BATCH);

        RunOptions explicit = Jobs.options("--input", "x", "--output", "y", "--runtime-mode", "batch",
                "-Dexecution.runtime-mode=STREAMING", "--restart-attempts", "2", "-Drestart-strategy.type=none");
        ReadableConfig e = explicit.environment().getConfiguration();
        assertThat(e.get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
        assertThat(e.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
        assertThat(e.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS)).isEqualTo(2);
    }

    /** The run-info lists -D, with secret-looking values redacted. */
    @Test
    void dashDIsRecordedWithoutSecrets() {
        RunOptions o = Jobs.options("--input", "x", "--output", "y", "-Ds3.secret-key=hunter2",
                "-Ds3.endpoint=http://store:9000");

        assertThat(o.settings().get("-D")).isEqualTo(
                Map.of("s3.secret-key", Secrets.REDACTED, "s3.endpoint", "http://store:9000"));
        assertThat(String.valueOf(o.settings())).doesNotContain("hunter2");
    }

    /** Issue 40: S3A's marker cleanup cost ~10 s per object on an S3-compatible store. */
    @Test
    void s3KeepsDirectoryMarkersUnlessTheUserSaysOtherwise() {
        assertThat(FlinkDefaults.fileSystemDefaults(new Configuration()).toMap())
                .containsEntry("s3.directory.marker.retention", "keep");
        for (String key : new String[] {"s3.directory.marker.retention", "fs.s3a.directory.marker.retention"}) {
            Configuration user = new Configuration();
            user.setString(key, "delete");
            assertThat(FlinkDefaults.fileSystemDefaults(user).toMap()).as(key)
                    .containsEntry(key, "delete").hasSize(1);
        }
    }
}
