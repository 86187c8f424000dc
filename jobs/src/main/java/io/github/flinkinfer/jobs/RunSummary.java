package io.github.flinkinfer.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.operators.BatchMetrics;
import io.github.flinkinfer.operators.BatchMetricsReader;
import io.github.flinkinfer.operators.ErrorRecord;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.report.Timeline;
import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.github.flinkinfer.jobs.workload.WorkloadVerdicts;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Job-wide totals, cost and chart series of one run, computed from its committed per-batch
 * metrics and error files (never in-progress ones), so it can be rebuilt for any run, also one
 * that ran on a cluster. Batch latency percentiles are exact (nearest rank) over all batches of
 * all subtasks; they are never averaged across subtasks.
 */
public final class RunSummary {

    public String runId;
    public String model;
    public long succeeded;
    /**
     * Chunked moderation runs: documents that got a verdict ({@code succeeded}, {@code failed}
     * and the rates count windows there); {@code null} otherwise.
     */
    public Long documents;
    public long failed;
    /** Incremental runs: documents not inferred because an earlier run's rows were reused. */
    public long skippedUnchanged;
    /** Tokens those documents would have run through the model. */
    public long skippedTokens;
    public Map<String, Long> errorsByReason = new TreeMap<>();
    public long batches;
    public long realTokens;
    public long paddedTokens;
    public double paddingEfficiency;
    public long retries;
    public int subtasks;
    /** Wall time of the whole job (driver-measured; from the records when rebuilt). */
    public double wallSeconds;
    /** Job-wide: successful items / wall seconds (start-up, load and idle included). */
    public double itemsPerSecond;
    /** Job-wide: real (unpadded) tokens / wall seconds. */
    public double realTokensPerSecond;
    public Map<String, Double> batchLatencyMs = new LinkedHashMap<>();
    public Map<String, Double> phaseTotalsMs = new LinkedHashMap<>();
    public Cost cost = new Cost();
    public Quality quality = new Quality();
    public Series series = new Series();
    /** Settings, model, versions and machine, from {@code run-info-<run-id>.json} when present. */
    public JsonNode runInfo;
    /** {@code --workload} runs: the card's clauses and the plan's forecast (from the run-info); else null. */
    public WorkloadContract workload;
    /** {@code --workload} runs: the verdict per clause (docs/workload.md, "Verdicts"); else null. */
    public List<WorkloadVerdict> workloadVerdicts;
    /** Runs on the embedded cluster: how long it took to start, and when against submission; else null. */
    public ClusterStart clusterStart;

    /**
     * The embedded cluster's start (the driver starts it while it still checks and builds the run).
     *
     * @param seconds from the start of its start to ready
     * @param readyAfterSubmissionSeconds when it was ready, against submission (negative: before)
     * @param taken whether the job ran on it (false: it had too few slots, Flink started another)
     */
    public record ClusterStart(double seconds, double readyAfterSubmissionSeconds, boolean taken) {}

    /** Where the money went; see docs/measurement.md, "Cost". */
    public static final class Cost {
        public String currency = "USD";
        public double busy;
        public double load;
        public double idle;
        public double total;
        public double perItem;
        public double perSuccessfulItem;
        public double per1MRealTokens;
        public double referencePricePer1MTokens;
        /** Our cost per 1M tokens / the reference price (below 1 = cheaper); 0 when no reference. */
        public double ratioToReference;
        /** Estimated cost of the skipped documents: skipped tokens at this run's cost per real token. */
        public double savedEstimate;
    }

    /** The quality gate's sample: outputs re-run alone through the reference model. */
    public static final class Quality {
        public long checked;
        /** {@code cosine} or {@code label_agreement}. */
        public String metric;
        public double min = 1.0;
        public double mean;
    }

    /** Chart data. */
    public static final class Series {
        /** [seconds since the first batch started, items/s] per time bin (see also the timeline). */
        public List<double[]> throughput = new ArrayList<>();
        /** [upper edge ms, batches] per latency bin. */
        public List<double[]> latencyHistogram = new ArrayList<>();
        /** bucket edge → padding efficiency of its batches. */
        public Map<Integer, Double> paddingByBucket = new TreeMap<>();
        /** token length upper edge → items (per-batch mean lengths, weighted by items). */
        public Map<Integer, Long> tokenLengthHistogram = new TreeMap<>();
        /** The whole run from submission: start-up, model loads and batches per subtask, throughput. */
        public Timeline timeline = new Timeline();
    }

    /** Reads a run's committed records from its output (any file system); wall ≤ 0 derives it. */
    public static RunSummary read(RunOutput output, double wallSeconds) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<BatchMetrics> metrics = new ArrayList<>();
        for (String line : output.committedLines(FileOutputs.METRICS_DIR)) {
            metrics.add(BatchMetricsReader.parse(line));
        }
        List<ErrorRecord> errors = new ArrayList<>();
        for (String line : output.committedLines(FileOutputs.ERRORS_DIR)) {
            errors.add(json.readValue(line, ErrorRecord.class));
        }
        RunSummary r = new RunSummary();
        r.runId = output.runId();
        if (output.exists(output.runInfo())) {
            r.runInfo = json.readTree(output.read(output.runInfo()));
        }
        r.totals(metrics, errors);
        long submitted = r.runInfo == null ? 0 : r.runInfo.path("submittedAtMillis").asLong(0);
        r.wallSeconds = wallSeconds > 0 ? wallSeconds : derivedWallSeconds(metrics, submitted);
        r.itemsPerSecond = r.wallSeconds > 0 ? r.succeeded / r.wallSeconds : 0;
        r.realTokensPerSecond = r.wallSeconds > 0 ? r.realTokens / r.wallSeconds : 0;
        r.cost(metrics);
        for (JsonNode s : lines(output, io.github.flinkinfer.jobs.index.IndexOutputs.SKIPPED_DIR, json)) {
            r.skippedUnchanged++;
            r.skippedTokens += s.path("tokens").asLong();
        }
        r.cost.savedEstimate = r.realTokens == 0 ? 0 : r.cost.total / r.realTokens * r.skippedTokens;
        r.series(metrics, submitted);
        r.workload = WorkloadContract.fromRunInfo(r.runInfo);
        if (r.workload != null) {
            r.workloadVerdicts = WorkloadVerdicts.judge(r.workload, r, metrics, submitted);
        }
        return r;
    }

    private void phase(String name, double ms) {
        phaseTotalsMs.merge(name, ms, Double::sum);
    }

    private void totals(List<BatchMetrics> metrics, List<ErrorRecord> errors) {
        List<Double> latencies = new ArrayList<>();
        for (String p : new String[] {"queueWaitMs", "tokenizeMs", "tensorMs", "inferenceMs", "postprocessMs", "writeMs"}) {
            phaseTotalsMs.put(p, 0.0);
        }
        for (BatchMetrics m : metrics) {
            batches++;
            succeeded += m.items - m.failedItems;
            realTokens += m.realTokens;
            paddedTokens += m.paddedTokens;
            retries += m.retries;
            model = m.model;
            subtasks = Math.max(subtasks, Math.max(1, m.subtasks));
            latencies.add(m.totalMs);
            phase("queueWaitMs", m.queueWaitMs);
            phase("tokenizeMs", m.tokenizeMs);
            phase("tensorMs", m.tensorMs);
            phase("inferenceMs", m.inferenceMs);
            phase("postprocessMs", m.postprocessMs);
            phase("writeMs", m.writeMs);
        }
        io.github.flinkinfer.operators.QualityTotals q = io.github.flinkinfer.operators.QualityTotals.of(metrics);
        quality.checked = q.checked();
        quality.metric = q.metric();
        quality.min = q.min();
        quality.mean = q.mean();
        for (ErrorRecord e : errors) {
            failed++;
            errorsByReason.merge(e.stage + "/" + e.reason, 1L, Long::sum);
        }
        paddingEfficiency = paddedTokens == 0 ? 1 : (double) realTokens / paddedTokens;
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        for (int p : new int[] {50, 90, 95, 99}) {
            batchLatencyMs.put("p" + p, percentile(sorted, p));
        }
        batchLatencyMs.put("max", sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
    }

    /**
     * Busy = Σ batch costs. Load = model load time × the subtask's price, a session prepared ahead
     * by the driver included (its read and creation, spent before submission, are added to the
     * total as well). Total = every subtask held for the job's whole wall time. Idle = total −
     * busy − load.
     */
    private void cost(List<BatchMetrics> metrics) {
        Map<Integer, Double> pricePerHour = new HashMap<>();
        for (BatchMetrics m : metrics) {
            int s = m.subtask;
            double price = m.subtaskPricePerHour;
            pricePerHour.put(s, price);
            cost.busy += m.costBusy;
            double ahead = m.sessionPrepared ? (m.modelReadMs + m.sessionCreateMs) * price / 3_600_000.0 : 0;
            cost.load += m.modelLoadMs * price / 3_600_000.0 + ahead;
            cost.total += ahead;
            cost.referencePricePer1MTokens = m.referencePricePer1MTokens;
            if (m.currency != null) {
                cost.currency = m.currency;
            }
        }
        for (double price : pricePerHour.values()) {
            cost.total += wallSeconds * price / 3600.0;
        }
        cost.idle = Math.max(0, cost.total - cost.busy - cost.load);
        long all = succeeded + failed;
        cost.perItem = all == 0 ? 0 : cost.total / all;
        cost.perSuccessfulItem = succeeded == 0 ? 0 : cost.total / succeeded;
        cost.per1MRealTokens = realTokens == 0 ? 0 : cost.total / realTokens * 1e6;
        cost.ratioToReference = cost.referencePricePer1MTokens > 0
                ? cost.per1MRealTokens / cost.referencePricePer1MTokens : 0;
    }

    private void series(List<BatchMetrics> metrics, long submitted) {
        series.timeline = Timeline.of(metrics, submitted, wallSeconds);
        if (metrics.isEmpty()) {
            return;
        }
        long t0 = metrics.stream().mapToLong(m -> m.startedAtMillis).min().getAsLong();
        long t1 = metrics.stream().mapToLong(m -> m.startedAtMillis
                + (long) m.totalMs).max().getAsLong();
        series.throughput = Timeline.throughput(metrics, t0, t1, 30);
        double maxLatency = 0;
        Map<Integer, long[]> padding = new TreeMap<>();
        for (BatchMetrics m : metrics) {
            maxLatency = Math.max(maxLatency, m.totalMs);
            long[] p = padding.computeIfAbsent(m.bucketEdge, k -> new long[2]);
            p[0] += m.realTokens;
            p[1] += m.paddedTokens;
            int n = m.items;
            double mean = n == 0 ? 0 : m.realTokens / n;
            int edge = 8;
            while (edge < mean) {
                edge *= 2;
            }
            series.tokenLengthHistogram.merge(edge, (long) n, Long::sum);
        }
        padding.forEach((edge, p) -> series.paddingByBucket.put(edge, p[1] == 0 ? 1.0 : (double) p[0] / p[1]));
        int latencyBins = 20;
        double lw = Math.max(1e-3, maxLatency / latencyBins);
        long[] counts = new long[latencyBins];
        for (BatchMetrics m : metrics) {
            counts[(int) Math.min(latencyBins - 1, m.totalMs / lw)]++;
        }
        for (int i = 0; i < latencyBins; i++) {
            series.latencyHistogram.add(new double[] {(i + 1) * lw, counts[i]});
        }
    }

    /**
     * The wall time of a run rebuilt from its records: from its submission (run-info) when known,
     * else from the first subtask opening, to the end of its last batch.
     */
    static double derivedWallSeconds(List<BatchMetrics> metrics, long submittedAtMillis) {
        if (metrics.isEmpty()) {
            return 0;
        }
        long opened = metrics.stream().mapToLong(m -> (m.subtaskOpenedAtMillis > 0 ? m.subtaskOpenedAtMillis : m.startedAtMillis)).min().getAsLong();
        long start = submittedAtMillis > 0 && submittedAtMillis <= opened ? submittedAtMillis : opened;
        long end = metrics.stream().mapToLong(m -> m.startedAtMillis
                + (long) m.totalMs).max().getAsLong();
        return (end - start) / 1000.0;
    }

    /** Nearest-rank percentile of an ascending array. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static List<JsonNode> lines(RunOutput output, String dir, ObjectMapper json) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : output.committedLines(dir)) {
            out.add(json.readTree(line));
        }
        return out;
    }

    /** Writes {@code report-<run-id>.json} and the self-contained {@code report-<run-id>.html}. */
    public void write(RunOutput output) throws IOException {
        output.write(output.report("json"),
                new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(this));
        output.write(output.report("html"), io.github.flinkinfer.jobs.report.ReportHtml.render(this));
    }

    /**
     * Time to the first batch and where it went: the embedded cluster's start, and for the slowest
     * subtask to load its model read, session (prepared ahead by the driver or not) and warm-up.
     */
    private void printColdStart(PrintStream out) {
        Timeline t = series.timeline;
        t.subtasks.stream().max(java.util.Comparator.comparingDouble(l -> l.modelReadSeconds
                + l.sessionCreateSeconds + l.warmUpSeconds)).ifPresent(l -> out.printf(
                "  cold start         first batch %.2f s after %s; %smodel read+sha256 %.2f s, session %.2f s"
                        + " (graph cache %s%s), warm-up %.2f s, tokenizer %.2f s (slowest subtask)%n",
                t.firstBatchSeconds, t.fromSubmission ? "submission" : "the first subtask opened",
                clusterStart == null ? "" : String.format(Locale.ROOT, "embedded cluster %.2f s (ready %.2f s %s"
                        + " submission%s), ", clusterStart.seconds(),
                        Math.abs(clusterStart.readyAfterSubmissionSeconds()),
                        clusterStart.readyAfterSubmissionSeconds() <= 0 ? "before" : "after",
                        clusterStart.taken() ? "" : "; not taken, too few slots"),
                l.modelReadSeconds, l.sessionCreateSeconds, l.graphCache,
                l.sessionPrepared ? "; prepared ahead by the driver" : "", l.warmUpSeconds,
                l.tokenizerLoadSeconds));
    }

    public void print(PrintStream out) {
        out.printf("%n== run %s (%s, %d subtasks) ==%n", runId, model, subtasks);
        if (documents != null) {
            out.printf("  documents          %,d  (chunked: the counts below are token windows)%n", documents);
        }
        out.printf("  succeeded          %,d%n", succeeded);
        out.printf("  failed (errors/)   %,d %s%n", failed, errorsByReason.isEmpty() ? "" : errorsByReason);
        if (skippedUnchanged > 0) {
            out.printf("  skipped unchanged  %,d  (%,d tokens, est. saved %.6f %s)%n",
                    skippedUnchanged, skippedTokens, cost.savedEstimate, cost.currency);
        }
        out.printf("  batches            %,d  (retries %d)%n", batches, retries);
        out.printf("  padding efficiency %.3f  (real %,d / padded %,d tokens)%n",
                paddingEfficiency, realTokens, paddedTokens);
        out.printf("  job-wide           %.1f items/s, %.0f real tokens/s over %.1f s wall%n",
                itemsPerSecond, realTokensPerSecond, wallSeconds);
        out.printf("  batch latency ms   p50 %.1f  p90 %.1f  p95 %.1f  p99 %.1f  max %.1f%n",
                batchLatencyMs.get("p50"), batchLatencyMs.get("p90"), batchLatencyMs.get("p95"),
                batchLatencyMs.get("p99"), batchLatencyMs.get("max"));
        printColdStart(out);
        if (quality.checked > 0) {
            out.printf("  quality (%s)  %d outputs vs reference: min %.5f, mean %.5f%n",
                    quality.metric, quality.checked, quality.min, quality.mean);
        }
        if (cost.total > 0) {
            out.printf("  cost %s           total %.6f (busy %.6f, load %.6f, idle %.6f)%n",
                    cost.currency, cost.total, cost.busy, cost.load, cost.idle);
            out.printf("                     %.8f per successful item, %.4f per 1M real tokens%s%n",
                    cost.perSuccessfulItem, cost.per1MRealTokens,
                    cost.ratioToReference > 0 ? String.format(" (%.3f× the reference API)", cost.ratioToReference) : "");
        }
        if (workloadVerdicts != null) {
            WorkloadVerdicts.print(workloadVerdicts, workload, out);
        }
    }
}
