package io.github.flinkinfer.operators.metrics;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * Keeps what is registered in it under the name a Prometheus reporter would build (groups joined
 * with {@code _}, variables as {@code {k=v,…}}), so unit tests can read metrics without a cluster.
 */
final class RecordingMetricGroup extends UnregisteredMetricsGroup {
    final Map<String, Metric> metrics;
    private final String scope;
    private final Map<String, String> labels;

    RecordingMetricGroup() {
        this(new TreeMap<>(), "", new TreeMap<>());
    }

    private RecordingMetricGroup(Map<String, Metric> metrics, String scope, Map<String, String> labels) {
        this.metrics = metrics;
        this.scope = scope;
        this.labels = labels;
    }

    /** A counter's value by its full name, e.g. {@code model_items_total{model=m}}. */
    long count(String name) {
        Metric m = metrics.get(name);
        if (!(m instanceof Counter c)) {
            throw new AssertionError("no counter " + name + " in " + metrics.keySet());
        }
        return c.getCount();
    }

    @Override
    public MetricGroup addGroup(String name) {
        return new RecordingMetricGroup(metrics, scope + name + "_", labels);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
        Map<String, String> more = new TreeMap<>(labels);
        more.put(key, value);
        return new RecordingMetricGroup(metrics, scope + key + "_", more);
    }

    @Override
    public Counter counter(String name) {
        return counter(name, new SimpleCounter());
    }

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        return register(name, counter);
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        return register(name, gauge);
    }

    private <M extends Metric> M register(String name, M metric) {
        String key = scope + name + labels.toString().replace(", ", ",");
        if (metrics.put(key, metric) != null) {
            throw new AssertionError("registered twice: " + key);
        }
        return metric;
    }
}
