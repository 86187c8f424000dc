package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link RunSummary} as one self-contained HTML page: charts are inline SVG drawn here,
 * no scripts from anywhere, no network. A two-line inline script only marks the page as rendered
 * (used by the headless-browser test).
 */
public final class ReportHtml {
    private static final int W = 560;
    private static final int H = 220;
    private static final int PAD = 40;

    private ReportHtml() {}

    public static String render(RunSummary r) {
        StringBuilder b = new StringBuilder(32_768);
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>Run ").append(esc(r.runId)).append("</title><style>")
                .append("body{font:14px system-ui,sans-serif;margin:24px;color:#222}")
                .append("h1{font-size:20px}h2{font-size:16px;margin-top:28px}")
                .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}")
                .append("th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}")
                .append(".charts{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}")
                .append("figcaption{font-weight:600;margin-bottom:4px}svg text{font-size:10px}")
                .append("</style></head><body>");
        b.append("<h1>Run ").append(esc(r.runId)).append(" — ").append(esc(r.model)).append("</h1>");
        summary(b, r);
        b.append("<div class=\"charts\">");
        figure(b, "Throughput over time (items/s, job-wide)",
                line(r.series.throughput, "s", "items/s"));
        figure(b, String.format(Locale.ROOT, "Batch latency (ms): p50 %.0f · p90 %.0f · p95 %.0f · p99 %.0f",
                        r.batchLatencyMs.get("p50"), r.batchLatencyMs.get("p90"),
                        r.batchLatencyMs.get("p95"), r.batchLatencyMs.get("p99")),
                bars(labelsOf(r.series.latencyHistogram), valuesOf(r.series.latencyHistogram), "ms ≤", "batches"));
        figure(b, "Padding efficiency per bucket (real / padded tokens)",
                bars(keys(r.series.paddingByBucket), values(r.series.paddingByBucket), "≤", "efficiency"));
        figure(b, "Token length histogram (items; per-batch mean length)",
                bars(keys(r.series.tokenLengthHistogram), values(r.series.tokenLengthHistogram), "≤", "items"));
        figure(b, "Cost breakdown (" + esc(r.cost.currency) + ")",
                bars(List.of("busy", "load", "idle"),
                        List.of(r.cost.busy, r.cost.load, r.cost.idle), "", r.cost.currency));
        b.append("</div>");
        errors(b, r);
        info(b, r);
        b.append("<script>document.body.dataset.rendered=")
                .append("document.querySelectorAll('svg').length>=5?'ok':'missing';</script>");
        b.append("</body></html>");
        return b.toString();
    }

    private static void summary(StringBuilder b, RunSummary r) {
        b.append("<table>");
        row(b, "succeeded", String.format(Locale.ROOT, "%,d", r.succeeded));
        row(b, "failed (errors output)", String.format(Locale.ROOT, "%,d", r.failed));
        row(b, "batches (retries)", r.batches + " (" + r.retries + ")");
        row(b, "padding efficiency", String.format(Locale.ROOT, "%.3f", r.paddingEfficiency));
        row(b, "wall time", String.format(Locale.ROOT, "%.1f s", r.wallSeconds));
        row(b, "items/s (job-wide)", String.format(Locale.ROOT, "%.1f", r.itemsPerSecond));
        row(b, "real tokens/s (job-wide)", String.format(Locale.ROOT, "%.0f", r.realTokensPerSecond));
        row(b, "cost total / busy / load / idle", String.format(Locale.ROOT, "%.6f / %.6f / %.6f / %.6f %s",
                r.cost.total, r.cost.busy, r.cost.load, r.cost.idle, r.cost.currency));
        if (r.quality.checked > 0) {
            row(b, "quality vs reference (" + r.quality.metric + ")", String.format(Locale.ROOT,
                    "min %.5f, mean %.5f over %d outputs", r.quality.min, r.quality.mean, r.quality.checked));
        }
        row(b, "cost per successful item", String.format(Locale.ROOT, "%.8f", r.cost.perSuccessfulItem));
        row(b, "cost per 1M real tokens", String.format(Locale.ROOT, "%.4f", r.cost.per1MRealTokens));
        if (r.cost.referencePricePer1MTokens > 0) {
            row(b, "vs reference API", String.format(Locale.ROOT, "%.3f× of %.4f per 1M tokens",
                    r.cost.ratioToReference, r.cost.referencePricePer1MTokens));
        }
        b.append("</table>");
    }

    private static void errors(StringBuilder b, RunSummary r) {
        b.append("<h2>Errors by reason</h2>");
        if (r.errorsByReason.isEmpty()) {
            b.append("<p>None.</p>");
            return;
        }
        b.append("<table><tr><th>stage/reason</th><th>inputs</th></tr>");
        r.errorsByReason.forEach((k, v) -> row(b, k, String.valueOf(v)));
        b.append("</table>");
    }

    private static void info(StringBuilder b, RunSummary r) {
        if (r.runInfo == null) {
            return;
        }
        for (String section : List.of("model", "versions", "machine", "settings")) {
            JsonNode node = r.runInfo.get(section);
            if (node == null || !node.isObject()) {
                continue;
            }
            b.append("<h2>").append(esc(section)).append("</h2><table>");
            node.fields().forEachRemaining(e -> row(b, e.getKey(),
                    e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()));
            b.append("</table>");
        }
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("<tr><td>").append(esc(k)).append("</td><td>").append(esc(v)).append("</td></tr>");
    }

    private static void figure(StringBuilder b, String caption, String svg) {
        b.append("<figure><figcaption>").append(esc(caption)).append("</figcaption>").append(svg)
                .append("</figure>");
    }

    private static String line(List<double[]> points, String xUnit, String yUnit) {
        double maxX = points.stream().mapToDouble(p -> p[0]).max().orElse(1);
        double maxY = points.stream().mapToDouble(p -> p[1]).max().orElse(1);
        StringBuilder s = frame(maxY, yUnit);
        StringBuilder path = new StringBuilder();
        for (double[] p : points) {
            path.append(path.length() == 0 ? "M" : " L").append(fmt(x(p[0], maxX))).append(',')
                    .append(fmt(y(p[1], maxY)));
        }
        s.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"#2a6fdb\" stroke-width=\"2\"/>");
        s.append(text(W - PAD, H - 8, fmt(maxX) + " " + xUnit, "end"));
        return s.append("</svg>").toString();
    }

    private static String bars(List<String> labels, List<Double> values, String prefix, String yUnit) {
        double maxY = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        StringBuilder s = frame(maxY, yUnit);
        int n = Math.max(1, values.size());
        double slot = (W - 2.0 * PAD) / n;
        for (int i = 0; i < values.size(); i++) {
            double top = y(values.get(i), maxY);
            s.append("<rect x=\"").append(fmt(PAD + i * slot + 1)).append("\" y=\"").append(fmt(top))
                    .append("\" width=\"").append(fmt(Math.max(1, slot - 2))).append("\" height=\"")
                    .append(fmt(H - PAD - top)).append("\" fill=\"#3b8f5a\"><title>")
                    .append(esc(prefix + " " + labels.get(i) + ": " + fmt(values.get(i))))
                    .append("</title></rect>");
            if (n <= 12 || i % (n / 6) == 0) {
                s.append(text(PAD + i * slot + slot / 2, H - PAD + 12, labels.get(i), "middle"));
            }
        }
        return s.append("</svg>").toString();
    }

    private static StringBuilder frame(double maxY, String yUnit) {
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"")
                .append(H).append("\" viewBox=\"0 0 ").append(W).append(' ').append(H).append("\">");
        s.append("<line x1=\"").append(PAD).append("\" y1=\"").append(H - PAD).append("\" x2=\"")
                .append(W - PAD).append("\" y2=\"").append(H - PAD).append("\" stroke=\"#999\"/>");
        s.append("<line x1=\"").append(PAD).append("\" y1=\"").append(PAD / 2).append("\" x2=\"")
                .append(PAD).append("\" y2=\"").append(H - PAD).append("\" stroke=\"#999\"/>");
        s.append(text(PAD - 4, PAD / 2 + 4, fmt(maxY), "end"));
        s.append(text(PAD + 4, PAD / 2 - 6, yUnit, "start"));
        return s;
    }

    private static double x(double v, double max) {
        return PAD + (W - 2.0 * PAD) * (max == 0 ? 0 : v / max);
    }

    private static double y(double v, double max) {
        return H - PAD - (H - 1.5 * PAD) * (max == 0 ? 0 : v / max);
    }

    private static String text(double x, double y, String t, String anchor) {
        return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" text-anchor=\"" + anchor + "\">" + esc(t) + "</text>";
    }

    private static <K> List<String> keys(Map<K, ?> m) {
        List<String> out = new ArrayList<>();
        m.keySet().forEach(k -> out.add(String.valueOf(k)));
        return out;
    }

    private static List<Double> values(Map<?, ? extends Number> m) {
        List<Double> out = new ArrayList<>();
        m.values().forEach(v -> out.add(v.doubleValue()));
        return out;
    }

    private static List<String> labelsOf(List<double[]> pts) {
        return pts.stream().map(p -> fmt(p[0])).toList();
    }

    private static List<Double> valuesOf(List<double[]> pts) {
        return pts.stream().map(p -> p[1]).toList();
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return String.valueOf((long) v);
        }
        return Math.abs(v) >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
