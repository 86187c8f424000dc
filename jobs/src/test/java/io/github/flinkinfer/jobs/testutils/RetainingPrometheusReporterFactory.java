package io.github.flinkinfer.jobs.testutils;

import java.util.Properties;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.prometheus.PrometheusReporterFactory;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Flink's Prometheus reporter (same names, labels, HTTP endpoint) that keeps a finished task's
 * metrics: Flink drops them when the task ends, so a test of a bounded job could otherwise only
 * scrape values from before its last batch. Set {@code metrics.reporter.<name>.factory.class} to
 * this class and {@code metrics.reporter.<name>.port} as for the real one.
 */
public final class RetainingPrometheusReporterFactory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        MetricReporter prometheus = new PrometheusReporterFactory().createMetricReporter(properties);
        return new MetricReporter() {
            @Override
            public void open(MetricConfig config) {
                prometheus.open(config);
            }

            @Override
            public void close() {
                prometheus.close();
            }

            @Override
            public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
                prometheus.notifyOfAddedMetric(metric, name, group);
            }

            @Override
            public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
                // kept: the test scrapes after the job has finished
            }
        };
    }
}
