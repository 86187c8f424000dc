package io.github.flinkinfer.operators.metrics;

import java.util.concurrent.atomic.DoubleAdder;
import org.apache.flink.metrics.Counter;

/**
 * A Flink {@link Counter} of milliseconds fed fractional values: it keeps the exact sum and reports
 * it rounded, so many sub-millisecond batches add up instead of rounding to 0 one by one.
 */
public final class MillisCounter implements Counter {
    private final DoubleAdder millis = new DoubleAdder();

    /** Adds a duration in (fractional) milliseconds. */
    public void add(double ms) {
        millis.add(ms);
    }

    @Override
    public void inc() {
        millis.add(1);
    }

    @Override
    public void inc(long n) {
        millis.add(n);
    }

    @Override
    public void dec() {
        millis.add(-1);
    }

    @Override
    public void dec(long n) {
        millis.add(-n);
    }

    @Override
    public long getCount() {
        return Math.round(millis.sum());
    }
}
