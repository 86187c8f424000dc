package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.cli.Main;
import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * Keeps deploy/ honest without a Docker engine or Kubernetes: every YAML file parses, the
 * operator manifests run an entry class that exists with arguments the job's own parser
 * accepts, and the settings that docs/operations.md promises (one slot per GPU, Prometheus on
 * 9249, no web submission, parent-first native libraries) are really set. The entry class in
 * the built jar is checked by {@link JobJarITCase}, after {@code package}.
 */
class DeployManifestsTest {
    private static final String PARENT_FIRST = "ai.onnxruntime.;ai.djl.";

    @Test
    void everyYamlFileInDeployParses() throws Exception {
        List<Path> files = DeployFiles.yamlFiles();
        assertThat(files).extracting(p -> p.getFileName().toString())
                .contains("embed-gpu.yaml", "embed-cpu.yaml", "config.yaml");
        for (Path file : files) {
            assertThat(DeployFiles.documents(file)).as("%s", file).isNotEmpty();
        }
    }

    @Test
    void manifestsRunTheJobWithArgumentsItsParserAccepts() throws Exception {
        List<Named> jobs = DeployFiles.flinkJobs();
        assertThat(jobs).extracting(Named::file)
                .contains("kubernetes/gpu-batch/embed-gpu.yaml", "kubernetes/cpu-batch/embed-cpu.yaml");
        for (Named job : jobs) {
            String entryClass = job.spec().path("job").path("entryClass").asText();
            assertThat(Class.forName(entryClass)).as("%s", job).isEqualTo(Main.class);

            ParseResult parsed = Main.commandLine().parseArgs(job.args().toArray(String[]::new));
            assertThat(parsed.subcommand()).as("%s: args name a subcommand", job).isNotNull();
            CommandSpec options = parsed.subcommand().commandSpec().mixins().get("options");
            if (options != null && options.userObject() instanceof RunOptions o) {
                o.validate();
                assertThat(o.parallelism).as("%s: --parallelism = job.parallelism", job)
                        .isEqualTo(job.spec().path("job").path("parallelism").asInt());
                if ("gpu".equals(job.conf("external-resources"))) {
                    assertThat(o.device).as("%s", job).isIn("cuda", "auto");
                }
            }
        }
    }

    @Test
    void manifestsFollowTheOperationsGuide() throws Exception {
        for (Named job : DeployFiles.flinkJobs()) {
            assertThat(job.conf("web.submit.enable")).as("%s", job).isEqualTo("false");
            assertThat(job.conf("kubernetes.rest-service.exposed.type")).as("%s", job).isEqualTo("ClusterIP");
            assertThat(job.conf("metrics.reporter.prom.port")).as("%s", job).isEqualTo("9249");
            assertThat(job.conf("classloader.parent-first-patterns.additional")).as("%s", job)
                    .isEqualTo(PARENT_FIRST);
            assertThat(job.conf("execution.runtime-mode")).as("%s", job).isEqualTo("BATCH");
            if ("gpu".equals(job.conf("external-resources"))) {
                assertThat(job.conf("taskmanager.numberOfTaskSlots")).as("%s: one slot per GPU", job)
                        .isEqualTo(job.conf("external-resource.gpu.amount"));
                assertThat(job.conf("external-resource.gpu.driver-factory.class")).as("%s", job)
                        .isEqualTo("org.apache.flink.externalresource.gpu.GPUDriverFactory");
                assertThat(job.conf("external-resource.gpu.kubernetes.config-key")).as("%s", job)
                        .isEqualTo("nvidia.com/gpu");
            }
            // No secret in a manifest: credentials come from Kubernetes Secrets.
            job.spec().path("flinkConfiguration").fieldNames().forEachRemaining(key ->
                    assertThat(key).as("%s", job).doesNotContainIgnoringCase("secret")
                            .doesNotContainIgnoringCase("password"));
        }
    }

    @Test
    void theImageHoldsWhatTheManifestsUse() throws Exception {
        String dockerfile = Files.readString(DeployFiles.DEPLOY.resolve("docker/Dockerfile"));
        String rootPom = Files.readString(DeployFiles.DEPLOY.resolveSibling("pom.xml"));
        assertThat(dockerfile)
                .contains("ARG FLINK_VERSION=" + property(rootPom, "flink.version"))
                .contains("FROM flink:${FLINK_VERSION}-java17")
                .contains("/opt/flink/plugins/external-resource-gpu/")
                .contains("NVIDIA_DRIVER_CAPABILITIES=compute,utility")
                .contains("libcudnn9-cuda-12");
        for (Named job : DeployFiles.flinkJobs()) {
            String jar = job.spec().path("job").path("jarURI").asText();
            assertThat(jar).as("%s", job).startsWith("local:///opt/flink/usrlib/");
            assertThat(dockerfile).as("%s: the image has its jar", job)
                    .contains(" " + jar.substring("local://".length()));
        }
    }

    @Test
    void theStandaloneClusterStaysLocalAndMatchesTheBuild() throws Exception {
        Path standalone = DeployFiles.DEPLOY.resolve("standalone");
        JsonNode conf = DeployFiles.documents(standalone.resolve("conf/config.yaml")).get(0);
        assertThat(conf.path("web.submit.enable").asBoolean(true)).isFalse();
        assertThat(conf.path("rest.bind-address").asText()).isEqualTo("localhost");
        assertThat(conf.path("classloader.parent-first-patterns.additional").asText()).isEqualTo(PARENT_FIRST);

        String rootPom = Files.readString(DeployFiles.DEPLOY.resolveSibling("pom.xml"));
        String clusterPom = Files.readString(standalone.resolve("pom.xml"));
        for (String version : List.of("flink.version", "onnxruntime.version", "djl.version", "log4j.version")) {
            assertThat(property(clusterPom, version)).as(version).isEqualTo(property(rootPom, version));
        }
        assertThat(Files.readString(standalone.resolve("common.sh")))
                .contains("FLINK_JVM_OPENS=\"" + property(rootPom, "flink.jvm.opens") + "\"");
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</").matcher(pom);
        assertThat(m.find()).as("property %s", name).isTrue();
        return m.group(1).trim();
    }
}
