package io.github.flinkinfer.operators.ledger;

/**
 * A mergeable histogram of fixed size: 200 bins whose edges grow by 10% from 0.01, so any value
 * from 0.01 to about 10^6 (ms, tokens) lands in a bin at most 10% wide; percentiles are the
 * bin's upper edge, clamped to the exact minimum and maximum seen. Replaces sorting every batch.
 */
public final class LogHistogram {
    static final int BINS = 200;
    static final double FIRST_EDGE = 0.01;
    static final double GROWTH = 1.1;

    public long[] counts = new long[BINS];
    public long total;
    public double min;
    public double max;
    public double sum;

    public LogHistogram() {}

    public void add(double value, long weight) {
        if (weight <= 0 || Double.isNaN(value)) {
            return;
        }
        min = total == 0 ? value : Math.min(min, value);
        max = total == 0 ? value : Math.max(max, value);
        counts[bin(value)] += weight;
        total += weight;
        sum += value * weight;
    }

    public void add(double value) {
        add(value, 1);
    }

    static int bin(double value) {
        if (value <= FIRST_EDGE) {
            return 0;
        }
        int b = (int) Math.ceil(Math.log(value / FIRST_EDGE) / Math.log(GROWTH));
        return Math.min(BINS - 1, Math.max(0, b));
    }

    /** Upper edge of bin {@code b}. */
    static double edge(int b) {
        return FIRST_EDGE * Math.pow(GROWTH, b);
    }

    public void merge(LogHistogram o) {
        if (o.total == 0) {
            return;
        }
        min = total == 0 ? o.min : Math.min(min, o.min);
        max = total == 0 ? o.max : Math.max(max, o.max);
        for (int i = 0; i < BINS; i++) {
            counts[i] += o.counts[i];
        }
        total += o.total;
        sum += o.sum;
    }

    /** Nearest-rank percentile (0..100), within one bin's width (10%) of the exact value. */
    public double percentile(double p) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < BINS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.max(min, Math.min(max, edge(i)));
            }
        }
        return max;
    }

    /** Weight of the values at or below {@code bound}, counting a bin only when its upper edge is. */
    public long atMost(double bound) {
        if (max <= bound) {
            return total;
        }
        long n = 0;
        for (int i = 0; i < BINS && edge(i) <= bound; i++) {
            n += counts[i];
        }
        return n;
    }

    /** A bin's count with a value inside it (its geometric centre, clamped to min and max). */
    @FunctionalInterface
    public interface BinVisitor {
        void visit(double value, long count);
    }

    /** Visits the non-empty bins in ascending order. */
    public void forEachBin(BinVisitor visitor) {
        for (int i = 0; i < BINS; i++) {
            if (counts[i] > 0) {
                double centre = i == 0 ? FIRST_EDGE : edge(i) / Math.sqrt(GROWTH);
                visitor.visit(Math.max(min, Math.min(max, centre)), counts[i]);
            }
        }
    }

    public double mean() {
        return total == 0 ? 0 : sum / total;
    }
}
