package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;
import org.junit.jupiter.api.Test;

class ClasspathRpcSystemLoaderTest {
    @Test
    void flinkTakesThePekkoSystemFromTheClassPath() throws Exception {
        // Flink's own loader would return its CleanupOnCloseRpcSystem around a system loaded
        // from an extracted copy of the jar; this one is the class path's
        try (RpcSystem system = RpcSystem.load(new Configuration())) {
            assertThat(system.getClass().getName()).isEqualTo(ClasspathRpcSystemLoader.PEKKO_RPC_SYSTEM);
            assertThat(system.getClass().getClassLoader()).isSameAs(RpcSystem.class.getClassLoader());
        }
    }

    @Test
    void refusesWhereThePekkoSystemIsNotOnTheClassPathSoFlinksLoaderFollows() {
        ClasspathRpcSystemLoader withoutIt = new ClasspathRpcSystemLoader(ClassLoader.getPlatformClassLoader());
        assertThatThrownBy(() -> withoutIt.loadRpcSystem(new Configuration()))
                .isInstanceOf(RpcLoaderException.class)
                .hasMessageContaining("not on the class path");
        assertThat(withoutIt.getLoadPriority()).isLessThan(0); // before Flink's loader (0)
    }
}
