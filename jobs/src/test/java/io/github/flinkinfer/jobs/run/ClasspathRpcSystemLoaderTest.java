package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.classloading.SubmoduleClassLoader;
import org.apache.flink.runtime.rpc.RpcService;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;
import org.apache.flink.runtime.rpc.exceptions.RpcLoaderException;
import org.junit.jupiter.api.Test;

class ClasspathRpcSystemLoaderTest {
    /** Where the build copies Flink's RPC system for the launcher's class path (jobs/pom.xml). */
    static final Path RPC_JAR = Path.of("target", "launcher", "flink-rpc-akka.jar");

    @Test
    void takesThePekkoSystemFromTheLaunchersJar() throws Exception {
        assertThat(RPC_JAR).exists();
        // Flink's jars (this test's class path) plus the RPC jar, as on the launcher's class
        // path; component-first as Flink's own loader has it, because this test class path also
        // holds the Kafka test broker's Scala 2.13 (the launcher's holds no other Scala)
        try (URLClassLoader launcher = new SubmoduleClassLoader(new URL[] {RPC_JAR.toUri().toURL()},
                        RpcSystem.class.getClassLoader());
                RpcSystem system = new ClasspathRpcSystemLoader(launcher).loadRpcSystem(new Configuration())) {
            // Flink's own loader returns its CleanupOnCloseRpcSystem around a system loaded from
            // an extracted copy of the jar; this is the jar's own class, from the given loader
            assertThat(system.getClass().getName()).isEqualTo(ClasspathRpcSystemLoader.PEKKO_RPC_SYSTEM);
            assertThat(system.getClass().getClassLoader()).isSameAs(launcher);
            // Pekko and Scala load from the jar: a local RPC service starts and stops
            RpcService service = system.localServiceBuilder(new Configuration()).createAndStart();
            try {
                assertThat(service.getClass().getClassLoader()).isSameAs(launcher);
            } finally {
                service.closeAsync().get();
            }
        }
    }

    @Test
    void refusesWithoutTheJarSoFlinksLoaderFollows() throws Exception {
        // this module's test class path has no flink-rpc-akka (its Scala 2.12 would clash with
        // the Kafka test broker's): Flink's loader, priority 0, comes after ours
        assertThatThrownBy(() -> new ClasspathRpcSystemLoader().loadRpcSystem(new Configuration()))
                .isInstanceOf(RpcLoaderException.class)
                .hasMessageContaining("not on the class path");
        assertThat(ServiceLoader.load(RpcSystemLoader.class).stream().map(p -> p.type().getName()))
                .contains(ClasspathRpcSystemLoader.class.getName(),
                        "org.apache.flink.runtime.rpc.pekko.PekkoRpcSystemLoader");
        assertThat(new ClasspathRpcSystemLoader().getLoadPriority()).isLessThan(0);
        try (RpcSystem system = RpcSystem.load(new Configuration())) {
            assertThat(system.getClass().getName()).isNotEqualTo(ClasspathRpcSystemLoader.PEKKO_RPC_SYSTEM);
        }
        assertThat(Files.exists(RPC_JAR)).isTrue();
    }
}
