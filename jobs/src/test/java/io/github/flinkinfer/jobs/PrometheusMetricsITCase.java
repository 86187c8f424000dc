package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.PrometheusScrape;
import io.github.flinkinfer.jobs.testutils.PrometheusScrape.Sample;
import io.github.flinkinfer.jobs.testutils.RetainingPrometheusReporterFactory;
import io.github.flinkinfer.operators.metrics.LatencyBuckets;
import io.github.flinkinfer.operators.run.BisectingRunner;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inference operator's metrics as Prometheus sees them: an embedding job on two TaskManagers
 * with Flink's Prometheus reporter on a free local port, scraped over HTTP once the job is done
 * and checked against the run's own {@code metrics/} records; the Grafana dashboard only queries
 * metrics that scrape has.
 */
class PrometheusMetricsITCase {
    static final String PREFIX = "flink_taskmanager_job_task_operator_model_";
    static final Path DASHBOARD = Corpus.locate("deploy/grafana/flink-batch-inference.json");
    static final int PORT = freePort();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = MiniClusters.twoTaskManagers(prometheus());

    @TempDir static Path tmp;

    static PrometheusScrape scrape;
    static List<JsonNode> batches;

    /** Once for the class, from the first test: the cluster's environment is set per test. */
    @BeforeEach
    void runAndScrapeOnce() throws Exception {
        if (scrape != null) {
            return;
        }
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), Corpus.sample(300));
        Path out = tmp.resolve("out");
        MiniClusters.embed(Jobs.options("--input", input.toString(), "--output", out.toString(),
                "--model", "all-minilm-l6-v2-q", "--parallelism", "2", "--run-id", "prom",
                "--max-batch-size", "16", "--price-cpu-core-hour", "0.05"));
        batches = Outputs.jsonLines(out.resolve("metrics"));
        scrape = PrometheusScrape.of(PORT);
        assertThat(batches.size()).as("batches in metrics/").isGreaterThan(10);
    }

    @Test
    void countersAddUpToTheRunsRecordsAcrossBothTaskManagers() {
        assertThat(scrape.of(PREFIX + "items_total")).as("one series per subtask").hasSize(2)
                .extracting(s -> s.label("tm_id")).as("in two TaskManagers").doesNotHaveDuplicates();
        assertThat(total("items_total")).isEqualTo(sum("items") - sum("failedItems")).isEqualTo(300);
        assertThat(total("batches_total")).isEqualTo(batches.size());
        assertThat(total("real_tokens_total")).isEqualTo(sum("realTokens"));
        assertThat(total("padded_tokens_total")).isEqualTo(sum("paddedTokens"));
        assertThat(total("retries_total")).isEqualTo(sum("retries")).isZero();
        assertThat(total("cost_busy_total")).isCloseTo(sum("costBusy"), within(1e-12)).isPositive();
        assertThat(total("model_load_seconds")).isCloseTo(sum("modelLoadMs") / 1000, within(1e-9));
        assertThat(total("batch_latency_millis_sum")).as("ms, rounded per subtask")
                .isCloseTo(sum("totalMs"), within(2.0));
        for (String reason : BisectingRunner.REASONS) {
            assertThat(scrape.of(PREFIX + "reason_errors_total"))
                    .as("errors_total{reason=%s} exists before any error", reason)
                    .filteredOn(s -> reason.equals(s.label("reason"))).hasSize(2)
                    .allSatisfy(s -> assertThat(s.value()).isZero());
        }
        assertThat(scrape.of(PREFIX + "busy_fraction")).hasSize(2)
                .allSatisfy(s -> assertThat(s.value()).isPositive().isLessThanOrEqualTo(1));
    }

    @Test
    void latencyBucketsAreCumulativeCountsOfTheRecordsBatchTimes() {
        Map<String, Double> buckets = scrape.of(PREFIX + "batch_latency_millis_le_bucket").stream()
                .collect(Collectors.groupingBy(s -> s.label("le"), Collectors.summingDouble(Sample::value)));
        assertThat(buckets).hasSize(LatencyBuckets.BOUNDS_MILLIS.length + 1);
        assertThat(buckets.get(LatencyBuckets.INF)).isEqualTo(batches.size())
                .isEqualTo(total("batch_latency_millis_count"));
        for (long bound : LatencyBuckets.BOUNDS_MILLIS) {
            long expected = batches.stream().filter(b -> b.get("totalMs").asDouble() <= bound).count();
            assertThat(buckets.get(Long.toString(bound))).as("le=%s", bound).isEqualTo(expected);
        }
    }

    @Test
    void histogramQuantileOverBothSubtasksFindsTheBucketOfTheExactP99() {
        // what histogram_quantile(0.99, sum by (le) (…_bucket)) computes, over the scrape
        TreeMap<Double, Double> cumulative = new TreeMap<>();
        for (Sample s : scrape.of(PREFIX + "batch_latency_millis_le_bucket")) {
            cumulative.merge(le(s.label("le")), s.value(), Double::sum);
        }
        double[] ms = batches.stream().mapToDouble(b -> b.get("totalMs").asDouble()).sorted().toArray();
        double exact = ms[(int) Math.ceil(0.99 * ms.length) - 1];
        double upper = cumulative.ceilingKey(exact);
        Double lower = cumulative.lowerKey(upper);
        double estimate = quantile(0.99, cumulative);
        assertThat(estimate).as("exact P99 %s ms", exact)
                .isGreaterThan(lower == null ? 0 : lower).isLessThanOrEqualTo(upper);
    }

    @Test
    void everyMetricTheDashboardQueriesIsInTheScrape() throws Exception {
        String dashboard = Files.readString(DASHBOARD);
        List<String> queried = java.util.regex.Pattern.compile("flink_[a-zA-Z0-9_:]+").matcher(dashboard)
                .results().map(r -> r.group()).distinct().toList();
        assertThat(queried).as("metric names in %s", DASHBOARD).hasSizeGreaterThan(5);
        assertThat(scrape.names()).containsAll(queried);
    }

    /** Prometheus's bucketQuantile: linear interpolation inside the bucket the rank falls in. */
    static double quantile(double q, TreeMap<Double, Double> cumulative) {
        double rank = q * cumulative.lastEntry().getValue();
        double lowerBound = 0;
        double lowerCount = 0;
        for (Map.Entry<Double, Double> b : cumulative.entrySet()) {
            if (b.getValue() >= rank) {
                if (b.getKey().isInfinite()) {
                    return lowerBound;
                }
                return lowerBound + (b.getKey() - lowerBound) * (rank - lowerCount) / (b.getValue() - lowerCount);
            }
            lowerBound = b.getKey();
            lowerCount = b.getValue();
        }
        throw new AssertionError("no +Inf bucket");
    }

    /** An {@code le} value as Prometheus reads it (Go's ParseFloat takes "Inf"; Java's does not). */
    private static double le(String value) {
        return value.equals(LatencyBuckets.INF) ? Double.POSITIVE_INFINITY : Double.parseDouble(value);
    }

    private static double total(String metric) {
        return scrape.sum(PREFIX + metric, s -> true);
    }

    private static double sum(String field) {
        return batches.stream().mapToDouble(b -> b.get(field).asDouble()).sum();
    }

    private static Configuration prometheus() {
        Configuration conf = new Configuration();
        conf.setString("metrics.reporter.prom.factory.class", RetainingPrometheusReporterFactory.class.getName());
        conf.setString("metrics.reporter.prom.port", Integer.toString(PORT));
        return conf;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
