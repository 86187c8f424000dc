package io.github.flinkinfer.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.jobs.testutils.Jobs;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** The run spec is decided once from the parsed options, and building it leaves them as parsed. */
class RunSpecTest {

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration c = new Configuration();
        c.set(ExecutionOptions.RUNTIME_MODE, mode);
        return StreamExecutionEnvironment.getExecutionEnvironment(c);
    }

    @Test
    void theSpecTakesTheEnvironmentsModeAndChoosesARunIdWithoutTouchingTheOptions() throws Exception {
        RunOptions o = Jobs.options("--input", "x.jsonl", "--output", "out", "--max-batch-tokens", "1024");
        RunSpec spec = o.spec("embed", env(RuntimeExecutionMode.STREAMING));
        assertThat(spec.execution().mode()).isEqualTo(RuntimeExecutionMode.STREAMING);
        assertThat(spec.inference().batchMode()).isFalse();
        assertThat(spec.runId()).matches("\\d{8}-\\d{6}");
        assertThat(spec.output().runId()).isEqualTo(spec.runId());
        assertThat(spec.inference().batching().maxBatchTokens()).isEqualTo(1024);
        assertThat(spec.settings()).containsEntry("--max-batch-tokens", 1024);
        assertThat(spec.settingsDefaults()).containsKey("--max-batch-tokens");
        assertThat(o.runtimeMode).isNull();
        assertThat(o.runId).isNull();
        assertThatThrownBy(() -> spec.settings().put("--model", "x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anExplicitModeWinsAndBadOptionsStopTheSpec() throws Exception {
        RunOptions o = Jobs.options("--input", "x.jsonl", "--output", "out", "--runtime-mode", "BATCH", "--run-id", "r");
        RunSpec spec = o.spec("embed", env(RuntimeExecutionMode.STREAMING));
        assertThat(spec.execution().batchMode()).isTrue();
        assertThat(spec.runId()).isEqualTo("r");
        assertThatThrownBy(() -> Jobs.options("--output", "out").spec("embed", env(RuntimeExecutionMode.BATCH)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--input or --kafka-topic");
    }

    @Test
    void aHybridShuffleKeepsTheDedupeBeforeTokenization() throws Exception {
        for (var mode : org.apache.flink.api.common.BatchShuffleMode.values()) {
            StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
            Configuration shuffle = new Configuration();
            shuffle.set(ExecutionOptions.BATCH_SHUFFLE_MODE, mode);
            env.configure(shuffle);
            RunSpec spec = Jobs.options("--input", "x.jsonl", "--output", "out").spec("embed", env);
            // hybrid: the keep-first after inference's result filter never started (Flink 2.3)
            assertThat(spec.inference().pipelinedToInference()).as(mode.name())
                    .isEqualTo(!mode.name().contains("HYBRID"));
        }
    }
}
