package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/grafana/flink-batch-inference.json is a dashboard Grafana can import: every panel queries
 * the chosen Prometheus data source, and latency quantiles come from the merged buckets of all
 * subtasks. That each queried metric exists is checked against a real scrape in
 * PrometheusMetricsITCase; the Runs row's queries are evaluated by a real Prometheus in
 * RunsDashboardITCase.
 */
class GrafanaDashboardTest {
    private final JsonNode dashboard = read();

    @Test
    void everyPanelHasAQueryOnTheSelectedPrometheus() {
        assertThat(dashboard.path("uid").asText()).isEqualTo("flink-batch-inference");
        List<JsonNode> panels = new ArrayList<>();
        dashboard.path("panels").forEach(p -> {
            if (!p.path("type").asText().equals("row")) { // a row only heads the panels below it
                panels.add(p);
            }
        });
        assertThat(panels).isNotEmpty().allSatisfy(panel -> {
            assertThat(panel.path("datasource").path("uid").asText()).as(panel.path("title").asText())
                    .isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty()
                    .allSatisfy(t -> assertThat(t.path("expr").asText()).isNotBlank());
        });
        assertThat(titles()).contains("Throughput", "Real tokens per second", "Padding efficiency",
                "Batch latency (all subtasks)", "Errors by reason", "Busy fraction", "Cost", "Runs",
                "Cost per item, by run", "Failures, by run");
    }

    @Test
    void latencyQuantilesMergeTheBucketsOfAllSubtasks() {
        List<String> quantiles = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> {
            if (t.path("expr").asText().contains("histogram_quantile")) {
                quantiles.add(t.path("expr").asText());
            }
        }));
        assertThat(quantiles).hasSize(3).allSatisfy(q -> assertThat(q)
                .contains("sum by (le) (rate(").contains("_batch_latency_millis_le_bucket"));
    }

    private List<String> titles() {
        List<String> titles = new ArrayList<>();
        dashboard.path("panels").forEach(p -> titles.add(p.path("title").asText()));
        return titles;
    }

    private static JsonNode read() {
        try {
            return new ObjectMapper().readTree(DeployFiles.DEPLOY.resolve("grafana/flink-batch-inference.json").toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
