package io.github.flinkinfer.operators.metrics;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * A latency distribution Prometheus can merge across subtasks: cumulative bucket counters (one
 * Flink {@link Counter} per upper bound, in the metric-group variable {@code le}), a count and a
 * sum, all in milliseconds. A Flink {@code Histogram} would reach Prometheus as per-subtask
 * quantiles, which cannot be combined; buckets can:
 * <pre>{@code
 * histogram_quantile(0.99, sum by (le) (rate(<prefix>_batch_latency_millis_le_bucket[5m])))
 * }</pre>
 * Bounds are whole milliseconds and the last one is {@code Inf}, so the label values survive the
 * Prometheus reporter's character filter (which turns {@code .} and {@code +} into {@code _}).
 */
public final class LatencyBuckets {
    /** Upper bounds in milliseconds (1-2-5 steps from 1 ms to 1 min); {@code Inf} follows. */
    public static final long[] BOUNDS_MILLIS =
            {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 60_000};
    /** The {@code le} value of the bucket that counts every observation. */
    public static final String INF = "Inf";

    private final Counter[] buckets = new Counter[BOUNDS_MILLIS.length + 1];
    private final Counter count;
    private final MillisCounter sum;

    /** Registers {@code <name>_le_bucket{le=…}}, {@code <name>_count} and {@code <name>_sum}. */
    public LatencyBuckets(MetricGroup parent, String name) {
        MetricGroup group = parent.addGroup(name);
        for (int i = 0; i < BOUNDS_MILLIS.length; i++) {
            buckets[i] = group.addGroup("le", Long.toString(BOUNDS_MILLIS[i])).counter("bucket");
        }
        buckets[BOUNDS_MILLIS.length] = group.addGroup("le", INF).counter("bucket");
        count = group.counter("count");
        sum = group.counter("sum", new MillisCounter());
    }

    /** Counts one observation in every bucket whose bound it does not exceed. */
    public void record(double millis) {
        for (int i = 0; i < BOUNDS_MILLIS.length; i++) {
            if (millis <= BOUNDS_MILLIS[i]) {
                buckets[i].inc();
            }
        }
        buckets[BOUNDS_MILLIS.length].inc();
        count.inc();
        sum.add(millis);
    }
}
