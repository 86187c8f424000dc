package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.deploy.DeployFiles.Named;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prometheus finds every pod's reporter: each FlinkDeployment runs it on 9249 with that port named
 * {@code metrics} and annotated for discovery, and the PodMonitor scrapes that port on the pods
 * Flink labels as its native Kubernetes pods.
 */
class MetricsScrapeManifestsTest {

    @Test
    void everyDeploymentExposesAndAnnotatesTheReporterPort() throws Exception {
        List<Named> jobs = DeployFiles.flinkJobs();
        assertThat(jobs).hasSize(3);
        for (Named job : jobs) {
            assertThat(job.conf("metrics.reporter.prom.factory.class")).as("%s", job)
                    .isEqualTo("org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
            JsonNode pod = job.spec().path("podTemplate");
            JsonNode annotations = pod.path("metadata").path("annotations");
            assertThat(annotations.path("prometheus.io/scrape").asText()).as("%s", job).isEqualTo("true");
            assertThat(annotations.path("prometheus.io/port").asText()).as("%s", job)
                    .isEqualTo(job.conf("metrics.reporter.prom.port"));
            assertThat(annotations.path("prometheus.io/path").asText()).as("%s", job).isEqualTo("/metrics");
            JsonNode port = pod.path("spec").path("containers").get(0).path("ports").get(0);
            assertThat(port.path("name").asText()).as("%s", job).isEqualTo("metrics");
            assertThat(port.path("containerPort").asText()).as("%s", job)
                    .isEqualTo(job.conf("metrics.reporter.prom.port"));
        }
    }

    @Test
    void thePodMonitorScrapesTheNamedPortOfFlinksNativePods() throws Exception {
        Named monitor = DeployFiles.resource("kubernetes/monitoring/podmonitor.yaml", "PodMonitor");
        assertThat(monitor.resource().path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.spec().path("selector").path("matchLabels").path("type").asText())
                .isEqualTo("flink-native-kubernetes");
        JsonNode endpoint = monitor.spec().path("podMetricsEndpoints").get(0);
        assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
        for (Named job : DeployFiles.flinkJobs()) {
            assertThat(job.spec().path("mode").asText()).as("%s: pods labelled type=flink-native-kubernetes", job)
                    .isEqualTo("native");
        }
    }
}
