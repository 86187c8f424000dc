package io.github.flinkinfer.operators.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.metrics.MetricGroup;

/**
 * Exposes every meter of a Micrometer registry as Flink gauges, so any Flink metric reporter
 * (Prometheus via {@code metrics.reporter.prom.*}, JMX, …) exports them with no extra port.
 * Tags become Flink sub-groups ({@code key=value}); dots become underscores. Timers publish
 * {@code _count}, {@code _sum}, {@code _max} and one gauge per configured percentile
 * ({@code _p50}, {@code _p99}, …), in seconds.
 */
public final class FlinkMeterBridge {
    private FlinkMeterBridge() {}

    /** Bridges meters already in the registry and any added later. */
    public static void bind(MeterRegistry registry, MetricGroup group) {
        registry.getMeters().forEach(m -> register(m, group));
        registry.config().onMeterAdded(m -> register(m, group));
    }

    private static void register(Meter meter, MetricGroup root) {
        MetricGroup g = root;
        for (Tag tag : meter.getId().getTags()) {
            g = g.addGroup(tag.getKey(), tag.getValue());
        }
        String name = meter.getId().getName().replace('.', '_');
        if (meter instanceof Counter c) {
            gauge(g, name, c::count);
        } else if (meter instanceof Timer t) {
            gauge(g, name + "_count", () -> (double) t.count());
            gauge(g, name + "_sum", () -> t.totalTime(TimeUnit.SECONDS));
            gauge(g, name + "_max", () -> t.max(TimeUnit.SECONDS));
            for (ValueAtPercentile p : t.takeSnapshot().percentileValues()) {
                double q = p.percentile();
                gauge(g, name + "_" + percentileName(q), () -> percentile(t, q));
            }
        } else if (meter instanceof DistributionSummary d) {
            gauge(g, name + "_count", () -> (double) d.count());
            gauge(g, name + "_sum", d::totalAmount);
            gauge(g, name + "_max", d::max);
        } else if (meter instanceof Gauge gg) {
            gauge(g, name, gg::value);
        }
    }

    private static double percentile(Timer t, double q) {
        for (ValueAtPercentile p : t.takeSnapshot().percentileValues()) {
            if (p.percentile() == q) {
                return p.value(TimeUnit.SECONDS);
            }
        }
        return Double.NaN;
    }

    static String percentileName(double q) {
        String digits = String.format(Locale.ROOT, "%s", q * 100).replaceAll("\\.0$", "").replace('.', '_');
        return "p" + digits;
    }

    private static void gauge(MetricGroup g, String name, Supplier<Double> value) {
        g.gauge(name, (org.apache.flink.metrics.Gauge<Double>) value::get);
    }
}
