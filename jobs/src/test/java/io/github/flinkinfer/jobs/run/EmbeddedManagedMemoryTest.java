package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.Test;

/** The embedded TaskManager's managed memory grows with its slots, within the machine's share, unless the configuration sets it. */
class EmbeddedManagedMemoryTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void givesEverySlotWhatTheDefaultParallelismGetsOne() {
        assertThat(EmbeddedManagedMemory.bytes(1, 1, 24 * GIB)).isEqualTo(128 * MIB); // Flink's local default
        assertThat(EmbeddedManagedMemory.bytes(2, 1, 24 * GIB)).isEqualTo(128 * MIB);
        assertThat(EmbeddedManagedMemory.bytes(16, 1, 24 * GIB)).isEqualTo(1024 * MIB);
        assertThat(EmbeddedManagedMemory.bytes(32, 1, 24 * GIB)).isEqualTo(2048 * MIB);
    }

    @Test
    void staysWithinAnEighthOfTheMachineOverItsTaskManagers() {
        assertThat(EmbeddedManagedMemory.bytes(32, 1, 8 * GIB)).isEqualTo(1024 * MIB);
        assertThat(EmbeddedManagedMemory.bytes(16, 2, 8 * GIB)).isEqualTo(512 * MIB);
        assertThat(EmbeddedManagedMemory.bytes(16, 1, 512 * MIB)).as("never below Flink's own").isEqualTo(128 * MIB);
    }

    @Test
    void theEmbeddedClusterTakesItUnlessTheConfigurationSetsIt() {
        MiniClusterConfiguration sized = EmbeddedEnvironment.clusterConfiguration(new Configuration(), 16, 0);
        assertThat(sized.getConfiguration().get(TaskManagerOptions.MANAGED_MEMORY_SIZE).getBytes())
                .isEqualTo(EmbeddedManagedMemory.bytes(16, 1, EmbeddedManagedMemory.machineBytes()))
                .isGreaterThan(128 * MIB);

        Configuration own = new Configuration();
        own.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("96mb"));
        assertThat(EmbeddedEnvironment.clusterConfiguration(own, 16, 0).getConfiguration()
                .get(TaskManagerOptions.MANAGED_MEMORY_SIZE)).isEqualTo(MemorySize.parse("96mb"));
    }
}
