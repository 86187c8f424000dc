package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.KubernetesDeploymentMode;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes/ against the Flink Kubernetes Operator's model: every {@code FlinkDeployment}
 * binds into the operator's own classes (flink-kubernetes-operator-api) with unknown fields
 * failing, down to the pod templates (fabric8's Kubernetes model), and declares a Flink version
 * the operator treats as Flink 2 (config.yaml) without promising more than the image has.
 */
class OperatorManifestsTest {

    @Test
    void everyFlinkDeploymentBindsIntoTheOperatorsClasses() throws Exception {
        List<Named> deployments = DeployFiles.resources("FlinkDeployment");
        assertThat(deployments).extracting(Named::file).containsExactlyInAnyOrder(
                "kubernetes/cpu-batch/embed-cpu.yaml", "kubernetes/gpu-batch/embed-gpu.yaml",
                "kubernetes/kafka-backfill/embed-kafka.yaml");
        for (Named d : deployments) {
            FlinkDeployment bound = OperatorModel.flinkDeployment(d.resource());
            assertThat(bound.getMetadata().getName()).as("%s", d).isNotBlank();
            assertThat(bound.getSpec().getMode()).as("%s", d).isEqualTo(KubernetesDeploymentMode.NATIVE);
            assertThat(bound.getSpec().getImage()).as("%s", d).isEqualTo(d.spec().path("image").asText());
            assertThat(bound.getSpec().getJob().getUpgradeMode()).as("%s", d).isEqualTo(UpgradeMode.STATELESS);
            assertThat(bound.getSpec().getJob().getArgs()).as("%s", d).containsExactlyElementsOf(d.args());
            assertThat(bound.getSpec().getJob().getParallelism()).as("%s", d)
                    .isEqualTo(d.spec().path("job").path("parallelism").asInt());
            assertThat(bound.getSpec().getFlinkConfiguration()).as("%s", d)
                    .containsEntry("execution.runtime-mode", "BATCH");
            assertThat(bound.getSpec().getPodTemplate().getSpec().getContainers()).as("%s", d)
                    .extracting(c -> c.getName()).containsExactly("flink-main-container");
        }
    }

    @Test
    void aMisspeltFieldFailsInTheOperatorsClassesAndInThePodTemplate() throws Exception {
        Named cpu = DeployFiles.resource("kubernetes/cpu-batch/embed-cpu.yaml", "FlinkDeployment");

        ObjectNode job = cpu.resource().deepCopy();
        job.withObject("/spec/job").put("entryClas", "io.github.flinkinfer.jobs.cli.Main");
        assertThatThrownBy(() -> OperatorModel.flinkDeployment(job))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("entryClas");

        ObjectNode pod = cpu.resource().deepCopy();
        ArrayNode containers = (ArrayNode) pod.at("/spec/podTemplate/spec/containers");
        ((ObjectNode) containers.get(0)).putArray("volumeMount");
        assertThatThrownBy(() -> OperatorModel.flinkDeployment(pod))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("volumeMount");
    }

    @Test
    void flinkVersionIsAFlink2ValueNoNewerThanTheImage() throws Exception {
        String image = property(Files.readString(DeployFiles.DEPLOY.resolveSibling("pom.xml")), "flink.version");
        Matcher v = Pattern.compile("(\\d+)\\.(\\d+)\\..*").matcher(image);
        assertThat(v.matches()).as(image).isTrue();
        List<Named> deployments = DeployFiles.resources("FlinkDeployment");
        List<String> declared = deployments.stream().map(d -> d.spec().path("flinkVersion").asText()).distinct().toList();
        // One value everywhere; v2_*: the operator writes config.yaml only for 2.x (a Flink 2 image
        // ignores flink-conf.yaml); no newer than the image (Dockerfile FLINK_VERSION = flink.version).
        assertThat(declared).as("flinkVersion of %s", deployments).hasSize(1);
        Matcher d = Pattern.compile("v(\\d+)_(\\d+)").matcher(declared.get(0));
        assertThat(d.matches()).as(declared.get(0)).isTrue();
        assertThat(Integer.parseInt(d.group(1))).isEqualTo(Integer.parseInt(v.group(1))).isEqualTo(2);
        assertThat(Integer.parseInt(d.group(2))).isLessThanOrEqualTo(Integer.parseInt(v.group(2)));
    }

    @Test
    void theOperatorApiOnTheClasspathPredatesTheDeclaredFlinkVersion() throws Exception {
        // Fails once the operator API dependency is bumped to a release that knows the manifests'
        // flinkVersion: then bind it through the API (drop the carve-out in OperatorModel) and
        // declare the newest FlinkVersion that release knows (deploy/kubernetes/README.md).
        String declared = DeployFiles.resources("FlinkDeployment").get(0).spec().path("flinkVersion").asText();
        assertThat(OperatorModel.knows(declared)).as("operator API knows %s", declared).isFalse();
        assertThat(OperatorModel.knows("v1_20")).isTrue();
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</").matcher(pom);
        assertThat(m.find()).as("property %s", name).isTrue();
        return m.group(1).trim();
    }
}
