package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
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
}
