package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.cli.Main;
import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import io.github.flinkinfer.jobs.plan.ClusterSizing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * Keeps deploy/ honest without a Docker engine or Kubernetes: every YAML file parses, the
 * operator manifests run an entry class that exists with arguments the job's own parser
 * accepts, and the settings that docs/operations.md promises (a slot per core and two inference
 * subtasks per GPU, network memory for the job's graph, Prometheus on 9249, no web submission,
 * parent-first native libraries) are really set. The entry class in
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

    /**
     * docs/operations.md, "Sizing a GPU TaskManager": every core of a GPU TaskManager a slot that
     * reads, tokenizes and writes ({@code --tokenize-parallelism} = TaskManagers x slots), two
     * inference subtasks per GPU, slots spread over the TaskManagers.
     */
    @Test
    void gpuManifestsGiveTheHostPathEveryCoreAndEachGpuTwoInferenceSubtasks() throws Exception {
        List<Named> gpuJobs = DeployFiles.flinkJobs().stream()
                .filter(job -> "gpu".equals(job.conf("external-resources"))).toList();
        assertThat(gpuJobs).extracting(Named::file).contains("kubernetes/gpu-batch/embed-gpu.yaml");
        for (Named job : gpuJobs) {
            RunOptions o = runOptions(job);
            int slots = Integer.parseInt(job.conf("taskmanager.numberOfTaskSlots"));
            int gpus = Integer.parseInt(job.conf("external-resource.gpu.amount"));
            int cores = job.spec().path("taskManager").path("resource").path("cpu").asInt();
            assertThat(slots).as("%s: a slot per core", job).isEqualTo(cores);
            assertThat(o.tokenizeParallelism % slots).as("%s: --tokenize-parallelism fills whole TaskManagers", job)
                    .isZero();
            int taskManagers = o.tokenizeParallelism / slots;
            assertThat(taskManagers).as("%s", job).isPositive();
            assertThat(o.parallelism).as("%s: two inference subtasks per GPU", job).isEqualTo(2 * gpus * taskManagers);
            assertThat(job.conf("taskmanager.load-balance.mode")).as("%s", job).isEqualTo("slots");
        }
    }

    /**
     * Every manifest's TaskManagers hold the network memory its job needs: the job's own graph,
     * built from the manifest's arguments under its configuration, passes the run's pre-flight, and
     * the configured maximum covers the whole need (blocking exchanges' sort buffers included).
     */
    @Test
    void manifestsGiveTheirTaskManagersTheNetworkMemoryTheirJobNeeds(@TempDir Path dir) throws Exception {
        for (Named job : DeployFiles.flinkJobs()) {
            if (job.conf("taskmanager.memory.network.max") == null) {
                continue; // Flink's fraction of the process: nothing the client can check
            }
            List<String> args = new ArrayList<>(job.args().subList(1, job.args().size())); // after "embed"
            args.set(args.indexOf("--input") + 1, Files.writeString(dir.resolve("c.jsonl"),
                    "{\"id\": \"a\", \"text\": \"b\"}\n").toString());
            args.set(args.indexOf("--output") + 1, dir.resolve("out").toString());
            job.spec().path("flinkConfiguration").fields()
                    .forEachRemaining(e -> args.add("-D" + e.getKey() + "=" + e.getValue().asText()));
            ClusterSizing.Built built = ClusterSizing.build(RunOptions::embed, args.toArray(String[]::new));

            assertThat(built.preflight()).as("%s", job).startsWith("network memory: ");
            int slots = Integer.parseInt(job.conf("taskmanager.numberOfTaskSlots"));
            assertThat(MemorySize.parse(job.conf("taskmanager.memory.network.max")).getBytes())
                    .as("%s: %s", job, built.preflight())
                    .isGreaterThanOrEqualTo(built.need().bytesPerTaskManager(slots));
        }
    }

    private static RunOptions runOptions(Named job) {
        ParseResult parsed = Main.commandLine().parseArgs(job.args().toArray(String[]::new));
        return (RunOptions) parsed.subcommand().commandSpec().mixins().get("options").userObject();
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
