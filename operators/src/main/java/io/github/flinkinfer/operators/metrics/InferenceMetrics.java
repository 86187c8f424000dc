package io.github.flinkinfer.operators.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.MetricGroup;

/**
 * The inference subtask's meters (Micrometer, names carry their units), bridged into its Flink
 * metric group scoped {@code model=<name>}. One instance per subtask; updated once per batch.
 */
public final class InferenceMetrics {
    private static final double[] PERCENTILES = {0.5, 0.9, 0.95, 0.99};

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final Counter items;
    private final Counter realTokens;
    private final Counter paddedTokens;
    private final Counter batches;
    private final Counter retries;
    private final Timer batchLatency;
    private final Timer queueWait;
    private final Timer tokenize;
    private final Timer inference;
    private final DoubleAdder busyMillis = new DoubleAdder();
    private final DoubleAdder cost = new DoubleAdder();
    private final long openedNanos = System.nanoTime();

    public InferenceMetrics(MetricGroup flinkGroup, String model, LongSupplier loadMillis,
            LongSupplier bufferedItems) {
        FlinkMeterBridge.bind(registry, flinkGroup.addGroup("model", model));
        items = Counter.builder("items_total").register(registry);
        realTokens = Counter.builder("real_tokens_total").register(registry);
        paddedTokens = Counter.builder("padded_tokens_total").register(registry);
        batches = Counter.builder("batches_total").register(registry);
        retries = Counter.builder("retries_total").register(registry);
        batchLatency = timer("batch_latency_seconds");
        queueWait = timer("queue_wait_seconds");
        tokenize = timer("tokenize_seconds");
        inference = timer("inference_seconds");
        Gauge.builder("model_load_seconds", () -> loadMillis.getAsLong() / 1000.0).register(registry);
        Gauge.builder("buffered_items", bufferedItems::getAsLong).register(registry);
        Gauge.builder("busy_fraction", this::busyFraction).register(registry);
        Gauge.builder("cost_busy_total", cost::sum).register(registry);
    }

    private Timer timer(String name) {
        return Timer.builder(name).publishPercentiles(PERCENTILES).register(registry);
    }

    /** Records one finished batch. */
    public void onBatch(int succeeded, long real, long padded, int retriedRuns, double queueWaitMs,
            double tokenizeMs, double inferenceMs, double totalMs, double batchCost) {
        items.increment(succeeded);
        realTokens.increment(real);
        paddedTokens.increment(padded);
        batches.increment();
        retries.increment(retriedRuns);
        batchLatency.record(nanos(totalMs));
        queueWait.record(nanos(queueWaitMs));
        tokenize.record(nanos(tokenizeMs));
        inference.record(nanos(inferenceMs));
        busyMillis.add(totalMs);
        cost.add(batchCost);
    }

    /** A failed input, by {@code stage/reason}. */
    public void onError(String reason) {
        Counter.builder("errors_total").tag("reason", reason).register(registry).increment();
    }

    /** Share of this subtask's lifetime spent running batches (the rest is load, waiting, idle). */
    public double busyFraction() {
        double lifetimeMs = (System.nanoTime() - openedNanos) / 1e6;
        return lifetimeMs <= 0 ? 0 : Math.min(1.0, busyMillis.sum() / lifetimeMs);
    }

    MeterRegistry registry() {
        return registry;
    }

    private static Duration nanos(double millis) {
        return Duration.ofNanos((long) (millis * 1e6));
    }
}
