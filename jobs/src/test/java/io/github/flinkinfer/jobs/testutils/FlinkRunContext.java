package io.github.flinkinfer.jobs.testutils;

import java.util.List;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.util.MiniClusterPipelineExecutorServiceLoader;

/**
 * Makes {@code StreamExecutionEnvironment.getExecutionEnvironment()} behave as under {@code flink
 * run}: a context environment that holds the cluster's (client's) configuration, merged under
 * what the program sets, and submits to the given MiniCluster.
 */
public final class FlinkRunContext extends StreamExecutionEnvironment {
    private FlinkRunContext() {}

    public static void install(MiniCluster cluster, Configuration clusterConfiguration) {
        initializeContextEnvironment(program -> {
            Configuration merged = MiniClusterPipelineExecutorServiceLoader.updateConfigurationForMiniCluster(
                    new Configuration(clusterConfiguration), List.of(), List.of());
            merged.addAll(program);
            return new StreamContextEnvironment(new MiniClusterPipelineExecutorServiceLoader(cluster),
                    merged, Thread.currentThread().getContextClassLoader(), false, false);
        });
    }

    public static void uninstall() {
        resetContextEnvironment();
    }
}
