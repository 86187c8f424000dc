package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The operators' Micrometer meters reach Flink's metric system, read through a Flink reporter. */
class FlinkMetricsITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    @TempDir Path tmp;

    @Test
    void micrometerMetricsAreExposedThroughFlinkReporters() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), Corpus.sample(300));
        MiniClusters.embed(Jobs.options("--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--model", "all-minilm-l6-v2-q", "--parallelism", "2", "--run-id", "m",
                "--price-cpu-core-hour", "0.05"));

        double items = 0;
        int p99Seen = 0;
        double cost = 0;
        for (Map.Entry<org.apache.flink.metrics.MetricGroup, Map<String, Metric>> g
                : REPORTER.getMetricsByGroup().entrySet()) {
            if (!g.getKey().getAllVariables().containsValue("all-minilm-l6-v2-q")
                    && !g.getKey().getMetricIdentifier("x").contains("all-minilm-l6-v2-q")) {
                continue;
            }
            for (Map.Entry<String, Metric> m : g.getValue().entrySet()) {
                if (!(m.getValue() instanceof Gauge<?> gauge) || !(gauge.getValue() instanceof Number n)) {
                    continue; // Flink's own metrics in the same group
                }
                double v = n.doubleValue();
                switch (m.getKey()) {
                    case "items_total" -> items += v;
                    case "batch_latency_seconds_p99" -> {
                        p99Seen++;
                        assertThat(v).isPositive();
                    }
                    case "cost_busy_total" -> cost += v;
                    default -> { }
                }
            }
        }
        assertThat(items).as("items_total summed over subtasks").isEqualTo(300);
        assertThat(p99Seen).as("one p99 gauge per subtask").isEqualTo(2);
        assertThat(cost).isPositive();
    }
}
