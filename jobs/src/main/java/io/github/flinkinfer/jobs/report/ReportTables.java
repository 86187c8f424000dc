package io.github.flinkinfer.jobs.report;

import static io.github.flinkinfer.jobs.report.HumanNumbers.count;
import static io.github.flinkinfer.jobs.report.HumanNumbers.money;
import static io.github.flinkinfer.jobs.report.HumanNumbers.num;
import static io.github.flinkinfer.jobs.report.ReportHtml.esc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The report's tables: per subtask, the numbers behind the charts, errors, settings, versions. */
final class ReportTables {
    private ReportTables() {}

    /** Where each subtask's time went; idle is what the idle cost is made of. */
    static void subtasks(StringBuilder b, RunSummary r) {
        Timeline t = r.series.timeline;
        b.append("<h2>Subtasks</h2><table><tr><th>subtask</th><th>batches</th><th>items</th>")
                .append("<th>start-up (s)</th><th>model load (s)</th>")
                .append("<th>of which read + sha256 / session / warm-up (s)</th><th>graph cache</th>")
                .append("<th>tokenizer load (s)</th><th>first batch (s)</th><th>busy (s)</th><th>idle (s)</th>")
                .append("<th>last batch ends (s)</th></tr>");
        for (Timeline.Lane lane : t.subtasks) {
            double startup = lane.openedAt.stream().mapToDouble(Double::doubleValue).min().orElse(0);
            double load = lane.modelLoads.stream().mapToDouble(l -> l[1] - l[0]).sum();
            double idle = Math.max(0, t.endSeconds - startup - load - lane.busySeconds);
            cells(b, String.valueOf(lane.subtask), count(lane.batchCount), count(lane.items), num(startup),
                    num(load), num(lane.modelReadSeconds) + " / " + num(lane.sessionCreateSeconds) + " / "
                            + num(lane.warmUpSeconds),
                    (lane.graphCache == null ? "—" : lane.graphCache)
                            + (lane.sessionPrepared ? " (session prepared ahead)" : ""),
                    num(lane.tokenizerLoadSeconds),
                    num(lane.firstBatchStart),
                    num(lane.busySeconds), num(idle), num(lane.lastBatchEnd));
        }
        b.append("</table>");
        if (t.fromSubmission) {
            b.append("<p class=\"note\">First batch ").append(esc(num(t.firstBatchSeconds)))
                    .append(" s after submission (the cold start");
            if (t.firstInputSeconds != null) {
                b.append("; the first input reached inference at ").append(esc(num(t.firstInputSeconds)))
                        .append(" s, after the read and, where there is one, keep-first's id pass");
            }
            b.append("); the last batch ended ")
                    .append(esc(num(t.lastBatchSeconds))).append(" s after it, ")
                    .append(esc(num(t.tailSeconds())))
                    .append(" s before the job's end (the tail: dedupe after inference, writers, commit).")
                    .append(" Times are seconds since submission.");
            if (r.clusterStart != null) {
                b.append(" The embedded cluster took ").append(esc(num(r.clusterStart.seconds())))
                        .append(" s to start, begun while the driver checked the run; it was ready ")
                        .append(esc(num(Math.abs(r.clusterStart.readyAfterSubmissionSeconds()))))
                        .append(r.clusterStart.readyAfterSubmissionSeconds() <= 0 ? " s before" : " s after")
                        .append(" submission.");
            }
            if (t.subtasks.stream().anyMatch(l -> l.sessionPrepared)) {
                b.append(" A session <em>prepared ahead</em> was created by the driver while the cluster"
                        + " started: its read and session times were spent before the subtask opened.");
            }
            b.append("</p>");
        }
    }

    /** A workload run's verdict per clause of its card: status, actual, target, forecast, detail. */
    static void workload(StringBuilder b, RunSummary r) {
        if (r.workloadVerdicts == null) {
            return;
        }
        b.append("<h2>Workload contract</h2><p class=\"note\">Card ").append(esc(r.workload.card()))
                .append(r.workload.plannedModel() != null ? ", planned model " + esc(r.workload.plannedModel()) : "")
                .append(". Deadline and budget fail the run only with --fail-on-missed-contract;"
                        + " a missed quality floor always does.</p>")
                .append("<table class=\"texts\"><tr><th>clause</th><th>status</th><th>actual</th><th>target</th>")
                .append("<th>forecast</th><th>unit</th><th>detail</th></tr>");
        for (io.github.flinkinfer.jobs.workload.WorkloadVerdict v : r.workloadVerdicts) {
            b.append("<tr><td>").append(esc(v.clause())).append("</td><td class=\"")
                    .append(v.status().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).append("\">")
                    .append(v.status()).append("</td><td>").append(esc(optional(v.actual())))
                    .append("</td><td>").append(esc(optional(v.target()))).append("</td><td>")
                    .append(esc(optional(v.forecast()))).append("</td><td>").append(esc(v.unit()))
                    .append("</td><td class=\"text\">").append(esc(v.detail())).append("</td></tr>");
        }
        b.append("</table>");
    }

    private static String optional(Double v) {
        return v == null ? "—" : num(v);
    }

    /** Every number of the summary, for those who want them all. */
    static void details(StringBuilder b, RunSummary r) {
        b.append("<h2>Numbers</h2><div class=\"tables\"><table><tr><th>run</th><th></th></tr>");
        cells(b, "succeeded / failed", count(r.succeeded) + " / " + count(r.failed));
        if (r.duplicates > 0) {
            cells(b, "duplicates (dropped)", count(r.duplicates));
        }
        if (r.skippedUnchanged > 0) {
            cells(b, "skipped unchanged", count(r.skippedUnchanged) + " (" + count(r.skippedTokens) + " tokens)");
        }
        cells(b, "batches (retries)", count(r.batches) + " (" + count(r.retries) + ")");
        cells(b, "real / padded tokens", count(r.realTokens) + " / " + count(r.paddedTokens));
        cells(b, "wall time", HumanNumbers.duration(r.wallSeconds));
        cells(b, "items/s (job-wide)", num(r.itemsPerSecond));
        cells(b, "real tokens/s (job-wide)", num(r.realTokensPerSecond));
        r.batchLatencyMs.forEach((k, v) -> cells(b, "batch latency " + k, num(v) + " ms"));
        b.append("</table>");
        if (r.cost.total > 0) {
            String c = r.cost.currency;
            b.append("<table><tr><th>cost</th><th>").append(esc(c)).append("</th></tr>");
            cells(b, "total", money(r.cost.total, c));
            cells(b, "busy / model load / idle", num(r.cost.busy) + " / " + num(r.cost.load) + " / " + num(r.cost.idle));
            cells(b, "per successful item", HumanNumbers.perMillion(r.cost.perSuccessfulItem, c, "items")
                    + " (" + num(r.cost.perSuccessfulItem) + " each)");
            cells(b, "per 1M real tokens", money(r.cost.per1MRealTokens, c));
            if (r.cost.referencePricePer1MTokens > 0) {
                cells(b, "vs reference API", num(r.cost.ratioToReference) + "× of "
                        + money(r.cost.referencePricePer1MTokens, c) + " per 1M tokens");
            }
            if (r.cost.savedEstimate > 0) {
                cells(b, "saved by skipping unchanged (est.)", money(r.cost.savedEstimate, c));
            }
            b.append("</table>");
        }
        b.append("<table><tr><th>bucket (tokens ≤)</th><th>padding efficiency</th></tr>");
        r.series.paddingByBucket.forEach((edge, eff) -> cells(b, String.valueOf(edge), num(eff)));
        b.append("</table></div>");
        b.append("<p class=\"note\">Padding efficiency = real / padded tokens; throughput and cost are job-wide"
                + " (start-up, model load and idle included).</p>");
    }

    static void errors(StringBuilder b, RunSummary r) {
        b.append("<h2>Errors by reason</h2>");
        if (r.errorsByReason.isEmpty() && r.duplicates == 0) {
            b.append("<p>None.</p>");
            return;
        }
        b.append("<table><tr><th>stage/reason</th><th>inputs</th></tr>");
        r.errorsByReason.forEach((k, v) -> cells(b, k, count(v)));
        if (r.duplicates > 0) {
            cells(b, io.github.flinkinfer.operators.errors.ErrorReason.DUPLICATE_ID.qualified() + " (dropped, not failed)",
                    count(r.duplicates));
        }
        b.append("</table>");
    }

    /** The settings that differ from the defaults; all of them one click away. */
    static void settings(StringBuilder b, RunSummary r) {
        JsonNode all = r.runInfo == null ? null : r.runInfo.get("settings");
        if (all == null || !all.isObject()) {
            return;
        }
        b.append("<h2>Settings</h2>");
        JsonNode defaults = r.runInfo.get("settingsDefaults");
        if (defaults != null && defaults.isObject()) {
            b.append("<table class=\"texts\"><tr><th>option</th><th>value</th><th>default</th></tr>");
            for (Iterator<Map.Entry<String, JsonNode>> it = defaults.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                textCells(b, e.getKey(), text(all.get(e.getKey())), text(e.getValue()));
            }
            b.append("</table>");
        }
        b.append("<details><summary>All ").append(all.size()).append(" settings</summary><table class=\"texts\">")
                .append("<tr><th>option</th><th>value</th></tr>");
        all.fields().forEachRemaining(e -> textCells(b, e.getKey(), text(e.getValue())));
        b.append("</table></details>");
    }

    /** Model, versions and machine from run-info. */
    static void about(StringBuilder b, RunSummary r) {
        if (r.runInfo == null) {
            return;
        }
        b.append("<h2>Model, versions, machine</h2><div class=\"tables\">");
        for (String section : List.of("model", "versions", "machine")) {
            JsonNode node = r.runInfo.get(section);
            if (node == null || !node.isObject()) {
                continue;
            }
            b.append("<table class=\"texts\"><tr><th>").append(esc(section)).append("</th><th></th></tr>");
            node.fields().forEachRemaining(e -> textCells(b, e.getKey(),
                    e.getValue().isNull() ? "unknown" : text(e.getValue())));
            b.append("</table>");
        }
        b.append("</div>");
    }

    private static String text(JsonNode v) {
        if (v == null || v.isNull()) {
            return "—";
        }
        return v.isValueNode() ? v.asText() : v.toString();
    }

    private static void cells(StringBuilder b, String... values) {
        b.append("<tr>");
        for (String v : values) {
            b.append("<td>").append(esc(v)).append("</td>");
        }
        b.append("</tr>");
    }

    private static void textCells(StringBuilder b, String... values) {
        b.append("<tr>");
        for (String v : values) {
            b.append("<td class=\"text\">").append(esc(v)).append("</td>");
        }
        b.append("</tr>");
    }
}
