package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.run.NetworkMemorySizing.Exchange;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.Test;

/** The embedded cluster's own settings fill only what the configuration ({@code -D}, config.yaml) leaves unset. */
class EmbeddedClusterConfigurationTest {
    @Test
    void startsWithoutDelegationTokensAndWithSlotsForTheJob() {
        MiniClusterConfiguration c = EmbeddedEnvironment.clusterConfiguration(new Configuration(), 16, 0);

        assertThat(c.getConfiguration().get(SecurityOptions.DELEGATION_TOKENS_ENABLED)).isFalse();
        assertThat(c.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS)).isEqualTo(16);
    }

    @Test
    void theUsersDelegationTokenSettingWins() {
        Configuration user = new Configuration();
        user.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, true);

        MiniClusterConfiguration c = EmbeddedEnvironment.clusterConfiguration(user, 2, 0);

        assertThat(c.getConfiguration().get(SecurityOptions.DELEGATION_TOKENS_ENABLED)).isTrue();
    }

    @Test
    void buffersOfSixteenKibibytesUnlessTheConfigurationSetsTheSegmentSize() {
        MiniClusterConfiguration ours = EmbeddedEnvironment.clusterConfiguration(new Configuration(), 16, 200L << 20);
        Configuration user = new Configuration();
        user.set(TaskManagerOptions.MEMORY_SEGMENT_SIZE, MemorySize.parse("32kb"));
        MiniClusterConfiguration theirs = EmbeddedEnvironment.clusterConfiguration(user, 16, 200L << 20);

        assertThat(ours.getConfiguration().get(TaskManagerOptions.MEMORY_SEGMENT_SIZE))
                .isEqualTo(MemorySize.parse("16kb"));
        assertThat(ours.getConfiguration().get(TaskManagerOptions.NETWORK_MEMORY_MAX))
                .isEqualTo(MemorySize.ofMebiBytes(200));
        assertThat(theirs.getConfiguration().get(TaskManagerOptions.MEMORY_SEGMENT_SIZE))
                .isEqualTo(MemorySize.parse("32kb"));
    }

    @Test
    void theEmbeddedSizingCountsTheBuffersTheClusterGets() {
        Configuration user = new Configuration();
        user.set(TaskManagerOptions.MEMORY_SEGMENT_SIZE, MemorySize.parse("32kb"));

        assertThat(TaskManagerNetwork.embeddedSizing(new Configuration()).segmentBytes()).isEqualTo(16 << 10);
        assertThat(TaskManagerNetwork.embeddedSizing(user).segmentBytes()).isEqualTo(32 << 10);
        // a session or application cluster keeps Flink's own (the client's configuration)
        assertThat(TaskManagerNetwork.sizing(new Configuration()).segmentBytes()).isEqualTo(32 << 10);
        // the early estimate halves with the buffers: 120 MiB at P=16 where 32 KiB buffers take 240
        assertThat(TaskManagerNetwork.estimatedBytes(new Configuration(), 16)).isEqualTo(120L << 20);
        assertThat(TaskManagerNetwork.estimatedBytes(user, 16)).isEqualTo(240L << 20);
    }

    @Test
    void aSmallJobGetsTheEmbeddedFloorNotFlinksDefault() {
        // the default embed job at P=2 needs about 10 MiB on the one-TaskManager rule
        MiniClusterConfiguration c = EmbeddedEnvironment.clusterConfiguration(new Configuration(), 2,
                TaskManagerNetwork.estimatedBytes(new Configuration(), 2));

        assertThat(c.getConfiguration().get(TaskManagerOptions.NETWORK_MEMORY_MAX)).isEqualTo(MemorySize.ofMebiBytes(16));
        assertThat(c.getConfiguration().get(TaskManagerOptions.NETWORK_MEMORY_MIN)).isEqualTo(MemorySize.ofMebiBytes(16));
    }

    @Test
    void oneTaskManagerCountsNoExclusiveBuffersUnlessSeveralOrUnalignedCheckpoints() {
        Exchange allToAll = new Exchange(16, 16, true, false);
        Configuration two = new Configuration();
        two.set(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS, 2);
        Configuration unaligned = new Configuration();
        unaligned.set(CheckpointingOptions.ENABLE_UNALIGNED, true);

        assertThat(TaskManagerNetwork.embeddedSizing(new Configuration()).gateBuffers(allToAll)).isEqualTo(8);
        // several TaskManagers exchange over remote channels
        assertThat(TaskManagerNetwork.embeddedSizing(two).gateBuffers(allToAll)).isEqualTo(16 * 2 + 8);
        // a restore replays in-flight data through recovered channels that take exclusive buffers
        assertThat(TaskManagerNetwork.embeddedSizing(unaligned).gateBuffers(allToAll)).isEqualTo(16 * 2 + 8);
    }
}
