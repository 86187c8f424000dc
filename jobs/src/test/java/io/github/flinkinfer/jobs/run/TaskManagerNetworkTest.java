package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.junit.jupiter.api.Test;

/** The cluster pre-flight: the line it prints, and the refusal when the client caps network memory below the job's need. */
class TaskManagerNetworkTest {

    /** A job with one pipelined all-to-all exchange at {@code parallelism}. */
    private static StreamGraph job(int parallelism) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.fromSequence(0, 100).rebalance().map(x -> x + 1).sinkTo(new DiscardingSink<>());
        return env.getStreamGraph(false);
    }

    private static Configuration client(int slots, String networkMax) {
        Configuration c = new Configuration();
        c.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
        if (networkMax != null) {
            c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse(networkMax));
        }
        return c;
    }

    @Test
    void namesTheNetworkMemoryTheTaskManagersNeed() {
        String line = TaskManagerNetwork.preflight(client(16, null), job(16), 16);
        assertThat(line).startsWith("network memory: ").contains("per slot").contains("of 16 slot(s)")
                .contains("taskmanager.memory.network.max");
    }

    @Test
    void refusesAClientCapBelowThePipelinedNeedInOneLineNamingTheSetting() {
        assertThatThrownBy(() -> TaskManagerNetwork.preflight(client(16, "1mb"), job(16), 16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("taskmanager.memory.network.max is 1024.000kb")
                .hasMessageContaining("--parallelism")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void acceptsACapThatHoldsTheNeed() {
        assertThat(TaskManagerNetwork.preflight(client(16, "2gb"), job(16), 16)).startsWith("network memory: ");
    }
}
