package io.github.flinkinfer.jobs.report;

import static io.github.flinkinfer.jobs.report.HumanNumbers.count;
import static io.github.flinkinfer.jobs.report.HumanNumbers.duration;
import static io.github.flinkinfer.jobs.report.HumanNumbers.money;
import static io.github.flinkinfer.jobs.report.HumanNumbers.num;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link RunSummary} as one self-contained HTML page that people read: key numbers,
 * the run's time line (start-up, model load and batches per subtask) with throughput on the same
 * axis, latency, cost and token-length charts drawn by uPlot, and the settings that differ from
 * the defaults (all of them one click away). uPlot and the chart code are inlined: the page
 * fetches nothing, so it opens from any file system or mail attachment.
 */
public final class ReportHtml {
    private ReportHtml() {}

    public static String render(RunSummary r) {
        StringBuilder b = new StringBuilder(96_000);
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width\">")
                .append("<title>Run ").append(esc(r.runId)).append("</title><style>")
                .append(ReportAssets.uplotCss()).append(ReportAssets.reportCss())
                .append("</style><script>").append(ReportAssets.errorCounter()).append("</script></head><body>");
        header(b, r);
        keyNumbers(b, r);
        ReportTables.workload(b, r);
        if (r.batches > 0) {
            b.append("<h2>Time line</h2><p class=\"note\">Each lane is one inference subtask: ")
                    .append(legend("startup", "start-up (waiting to be scheduled)"))
                    .append(legend("load", "model load")).append(legend("batch", "batches"))
                    .append(" — gaps are idle time, a lane that ends late is a straggler.</p>")
                    .append(chart("chart-timeline", "full"))
                    .append("<h3>Throughput (items/s, all subtasks)</h3>").append(chart("chart-throughput", "full"));
            b.append("<div class=\"charts\"><figure><figcaption>Batch latency</figcaption>")
                    .append(chart("chart-latency", "")).append("</figure>");
            if (r.cost.total > 0) {
                b.append("<figure><figcaption>Cost split (").append(esc(r.cost.currency)).append(")</figcaption>")
                        .append(chart("chart-cost", "")).append("</figure>");
            }
            b.append("<figure><figcaption>Token lengths</figcaption>").append(chart("chart-tokens", ""))
                    .append("</figure></div>");
            if (r.bound != null) {
                b.append("<p class=\"note\">What bounds this run (docs/measurement.md): ")
                        .append(esc(r.bound.line())).append("</p>");
            }
            ReportTables.subtasks(b, r);
        }
        ReportTables.details(b, r);
        ReportTables.errors(b, r);
        ReportTables.settings(b, r);
        ReportTables.about(b, r);
        b.append("<script>").append(ReportAssets.uplotJs()).append("</script>");
        b.append("<script type=\"application/json\" id=\"report-data\">").append(chartData(r)).append("</script>");
        b.append("<script>").append(ReportAssets.reportJs()).append("</script>");
        b.append("</body></html>");
        return b.toString();
    }

    private static void header(StringBuilder b, RunSummary r) {
        b.append("<h1>Run ").append(esc(r.runId)).append(" <span class=\"model\">")
                .append(esc(r.model)).append("</span></h1><p class=\"note\">");
        JsonNode info = r.runInfo;
        if (info != null && info.path("submittedAtMillis").asLong(0) > 0) {
            b.append("submitted ").append(java.time.Instant.ofEpochMilli(info.get("submittedAtMillis").asLong())
                    .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).append(" · ");
        }
        b.append(duration(r.wallSeconds)).append(" wall · ").append(r.subtasks).append(" subtasks");
        if (info != null) {
            String v = info.path("versions").path("flink-batch-inference").asText("");
            b.append(" · flink-batch-inference ").append(esc(v.isEmpty() || v.equals("null") ? "unknown" : v));
        }
        b.append("</p>");
    }

    private static void keyNumbers(StringBuilder b, RunSummary r) {
        b.append("<div class=\"kpis\">");
        kpi(b, "succeeded", count(r.succeeded), r.documents != null ? count(r.documents) + " documents" : "");
        kpi(b, "failed", count(r.failed), r.failed == 0 ? "" : "see errors below");
        kpi(b, "throughput", num(r.itemsPerSecond) + " items/s", num(r.realTokensPerSecond) + " real tokens/s");
        kpi(b, "batch latency", "p50 " + num(r.batchLatencyMs.getOrDefault("p50", 0.0)) + " ms",
                "p99 " + num(r.batchLatencyMs.getOrDefault("p99", 0.0)) + " ms");
        kpi(b, "padding efficiency", num(r.paddingEfficiency), count(r.realTokens) + " real tokens");
        if (r.bound != null && r.batches > 0) {
            kpi(b, "device busy", Math.round(100 * r.bound.deviceBusy()) + "%", esc(r.bound.bound()));
        }
        if (r.cost.total > 0) {
            kpi(b, "cost", money(r.cost.total, r.cost.currency),
                    HumanNumbers.perMillion(r.cost.perSuccessfulItem, r.cost.currency, "items"));
        }
        if (r.quality.checked > 0) {
            kpi(b, "quality (" + r.quality.metric + ")", "min " + num(r.quality.min),
                    "mean " + num(r.quality.mean) + " over " + count(r.quality.checked));
        }
        b.append("</div>");
    }

    private static void kpi(StringBuilder b, String label, String value, String sub) {
        b.append("<div class=\"kpi\"><div class=\"label\">").append(esc(label)).append("</div><div class=\"value\">")
                .append(esc(value)).append("</div><div class=\"sub\">").append(esc(sub)).append("</div></div>");
    }

    private static String legend(String cls, String text) {
        return "<span class=\"swatch " + cls + "\"></span>" + esc(text) + " ";
    }

    private static String chart(String id, String cls) {
        return "<div class=\"chart " + cls + "\" id=\"" + id + "\"></div>";
    }

    /** What report.js draws, as JSON safe inside a script element. */
    static String chartData(RunSummary r) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("timeline", r.series.timeline);
        d.put("latency", Map.of("histogram", r.series.latencyHistogram, "percentiles", r.batchLatencyMs));
        d.put("cost", Map.of("busy", r.cost.busy, "load", r.cost.load, "idle", r.cost.idle,
                "currency", r.cost.currency));
        List<long[]> tokens = new ArrayList<>();
        r.series.tokenLengthHistogram.forEach((edge, items) -> tokens.add(new long[] {edge, items}));
        d.put("tokenLengths", tokens);
        try {
            return new ObjectMapper().writeValueAsString(d).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
