package io.github.flinkinfer.operators.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The inference subtask's metrics in its Flink operator metric group, scoped {@code model=<name>}:
 * counters as Flink {@link Counter}s (names carry their units), batch latency as {@link
 * LatencyBuckets} that Prometheus can merge across subtasks, and a few gauges. Everything is
 * registered when the subtask opens, so each series exists from the start with value 0. One
 * instance per subtask; updated once per batch. See docs/operations.md for names and queries.
 */
public final class InferenceMetrics {
    /** Name of the batch latency distribution ({@code totalMs} of each batch). */
    public static final String BATCH_LATENCY = "batch_latency_millis";

    private final MetricGroup group;
    private final Counter items;
    private final Counter realTokens;
    private final Counter paddedTokens;
    private final Counter batches;
    private final Counter retries;
    private final MillisCounter queueWait;
    private final MillisCounter tokenize;
    private final MillisCounter inference;
    private final LatencyBuckets batchLatency;
    private final Map<String, Counter> errors = new HashMap<>();
    private final DoubleAdder busyMillis = new DoubleAdder();
    private final DoubleAdder cost = new DoubleAdder();
    private final long openedNanos = System.nanoTime();

    /**
     * @param errorReasons the reasons this subtask's failed items can have: one {@code errors_total}
     *     counter each, registered now
     */
    public InferenceMetrics(MetricGroup flinkGroup, String model, List<String> errorReasons,
            LongSupplier loadMillis, LongSupplier bufferedItems) {
        group = flinkGroup.addGroup("model", model);
        items = group.counter("items_total");
        realTokens = group.counter("real_tokens_total");
        paddedTokens = group.counter("padded_tokens_total");
        batches = group.counter("batches_total");
        retries = group.counter("retries_total");
        queueWait = group.counter("queue_wait_millis_total", new MillisCounter());
        tokenize = group.counter("tokenize_millis_total", new MillisCounter());
        inference = group.counter("inference_millis_total", new MillisCounter());
        batchLatency = new LatencyBuckets(group, BATCH_LATENCY);
        errorReasons.forEach(this::errors);
        group.gauge("model_load_seconds", (Gauge<Double>) () -> loadMillis.getAsLong() / 1000.0);
        group.gauge("buffered_items", (Gauge<Long>) bufferedItems::getAsLong);
        group.gauge("busy_fraction", (Gauge<Double>) this::busyFraction);
        group.gauge("cost_busy_total", (Gauge<Double>) cost::sum);
    }

    /** Records one finished batch. */
    public void onBatch(int succeeded, long real, long padded, int retriedRuns, double queueWaitMs,
            double tokenizeMs, double inferenceMs, double totalMs, double batchCost) {
        items.inc(succeeded);
        realTokens.inc(real);
        paddedTokens.inc(padded);
        batches.inc();
        retries.inc(retriedRuns);
        queueWait.add(queueWaitMs);
        tokenize.add(tokenizeMs);
        inference.add(inferenceMs);
        batchLatency.record(totalMs);
        busyMillis.add(totalMs);
        cost.add(batchCost);
    }

    /** A failed input, by its reason code. */
    public void onError(String reason) {
        errors(reason).inc();
    }

    private Counter errors(String reason) {
        return errors.computeIfAbsent(reason, r -> group.addGroup("reason", r).counter("errors_total"));
    }

    /** Share of this subtask's lifetime spent running batches (the rest is load, waiting, idle). */
    public double busyFraction() {
        double lifetimeMs = (System.nanoTime() - openedNanos) / 1e6;
        return lifetimeMs <= 0 ? 0 : Math.min(1.0, busyMillis.sum() / lifetimeMs);
    }
}
