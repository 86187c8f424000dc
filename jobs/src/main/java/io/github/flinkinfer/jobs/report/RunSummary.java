package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.github.flinkinfer.operators.ledger.Reconciliation;
import io.github.flinkinfer.operators.ledger.RunCounts;
import io.github.flinkinfer.operators.ledger.RunLedger;
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
 * Job-wide totals, cost and chart series of one run, computed from the ledger its job wrote
 * ({@link RunLedger}: counts, fixed-size histograms, a bounded time line per subtask), never from
 * its records, so the driver's work after a job and {@code report}'s are O(subtasks + sources)
 * and both give the same numbers. Batch latency percentiles come from a histogram of all batches
 * of all subtasks (within 10% of the exact nearest rank); they are never averaged across subtasks.
 */
public final class RunSummary {

    public String runId;
    public String model;
    /** Inputs read from every source (the ledger's {@code readBySource}). */
    public long read;
    /** Inputs dropped as duplicate ids (error rows with reason duplicate_id, never in {@link #failed}). */
    public long duplicates;
    public long succeeded;
    /**
     * Chunked moderation runs: documents that got a verdict ({@code succeeded}, {@code failed}
     * and the rates count windows there); {@code null} otherwise.
     */
    public Long documents;
    /** Inputs that failed, each once with a reason (error rows other than duplicates; {@link RunCounts}). */
    public long failed;
    /** Incremental runs: documents not inferred because an earlier run's rows were reused. */
    public long skippedUnchanged;
    /** Tokens those documents would have run through the model. */
    public long skippedTokens;
    /** {@link #failed} by {@code stage/reason} (duplicates apart, in {@link #duplicates}). */
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
    /** What bounds the run: device busy and the host stage that kept it waiting (docs/measurement.md). */
    public io.github.flinkinfer.jobs.report.RunBound bound;
    public Cost cost = new Cost();
    public Quality quality = new Quality();
    public Series series = new Series();
    /** Settings, model, versions and machine, from {@code run-info-<run-id>.json} when present. */
    public JsonNode runInfo;
    /** {@code --workload} runs: the card's clauses and the plan's forecast (from the run-info); else null. */
    public WorkloadContract workload;
    /** {@code --workload} runs: the verdict per clause (docs/workload.md, "Verdicts"); else null. */
    public List<WorkloadVerdict> workloadVerdicts;
    /** Succeeded items of batches within a workload card's latency bound (all without one). */
    public long withinLatencyBound;
    /** Whether every input is accounted for once: read = succeeded + failed + skipped + duplicates. */
    public Reconciliation reconciliation;
    /** The job's accounting this summary was made from (the manifest's body). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public RunLedger ledger;
    /**
     * The driver's work after the job, to the report written (null when rebuilt by {@code report}):
     * what must stay flat whatever the corpus (docs/benchmarks/scale-*.md).
     */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public DriverWork.Measured afterJob;
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

    /**
     * Reads a run's ledger (written by the job at its end) and run info from its output (any file
     * system): a few files, whatever the corpus. Refuses a run without a ledger: its job did not
     * finish, or still runs.
     */
    public static RunSummary read(RunOutput output) throws IOException {
        if (!output.exists(output.ledger())) {
            throw new IllegalArgumentException("Run '" + output.runId() + "' under " + output.root()
                    + " has no " + output.ledger().getName() + ": its job has not finished (still"
                    + " running, failed or cancelled), so there is nothing to report or mark");
        }
        RunLedger ledger = RunLedger.fromJson(output.read(output.ledger()));
        JsonNode runInfo = output.exists(output.runInfo())
                ? new ObjectMapper().readTree(output.read(output.runInfo())) : null;
        return of(output.runId(), ledger, runInfo);
    }

    /**
     * The summary of a run's ledger: the driver's after its job and {@code report}'s later are the
     * same, wall time included (submission to the job's end, as the ledger recorded it).
     */
    public static RunSummary of(String runId, RunLedger ledger, JsonNode runInfo) {
        RunSummary r = new RunSummary();
        r.runId = runId;
        r.runInfo = runInfo;
        r.ledger = ledger;
        r.reconciliation = ledger.reconcile();
        r.totals(ledger);
        long submitted = runInfo == null ? 0 : runInfo.path("submittedAtMillis").asLong(0);
        r.wallSeconds = wallSeconds(ledger, submitted);
        r.itemsPerSecond = r.wallSeconds > 0 ? r.succeeded / r.wallSeconds : 0;
        r.realTokensPerSecond = r.wallSeconds > 0 ? r.realTokens / r.wallSeconds : 0;
        r.cost(ledger);
        r.skippedTokens = ledger.skippedTokens;
        r.cost.savedEstimate = r.realTokens == 0 ? 0 : r.cost.total / r.realTokens * r.skippedTokens;
        r.series(ledger, submitted);
        r.bound = io.github.flinkinfer.jobs.report.RunBound.of(ledger,
                runInfo == null ? 0 : runInfo.path("settings").path("--tokenize-parallelism").asInt(0));
        r.workload = WorkloadContract.fromRunInfo(r.runInfo);
        if (isChunkedClassification(runInfo)) { // items are windows there; say how many documents
            r.documents = ledger.documentsWithResult();
        }
        return r;
    }

    private static boolean isChunkedClassification(JsonNode runInfo) {
        return runInfo != null
                && io.github.flinkinfer.runtime.card.ModelTask.CLASSIFICATION.name()
                        .equalsIgnoreCase(runInfo.path("model").path("task").asText())
                && runInfo.path("settings").path("--chunk-size").asInt(0) > 0;
    }

    private void totals(RunLedger l) {
        RunCounts counts = l.counts(); // the manifest's, the pushed metrics' and the console's
        read = counts.read();
        duplicates = counts.duplicates();
        succeeded = counts.succeeded();
        failed = counts.failed();
        errorsByReason.putAll(counts.failedByReason());
        skippedUnchanged = counts.skipped();
        batches = l.batches;
        retries = l.retries;
        realTokens = l.realTokens;
        paddedTokens = l.paddedTokens;
        model = l.model;
        subtasks = Math.max(1, l.inferenceSubtasks);
        withinLatencyBound = l.withinLatencyBound;
        phaseTotalsMs.putAll(l.phaseMs);
        quality.checked = l.quality.checked;
        quality.metric = l.quality.metric;
        quality.min = l.qualityMin();
        quality.mean = l.quality.checked == 0 ? 0 : l.quality.sum / l.quality.checked;
        paddingEfficiency = paddedTokens == 0 ? 1 : (double) realTokens / paddedTokens;
        for (int p : new int[] {50, 90, 95, 99}) {
            batchLatencyMs.put("p" + p, l.batchLatencyMs.percentile(p));
        }
        batchLatencyMs.put("max", l.batchLatencyMs.max);
    }

    /**
     * Busy = Σ batch costs. Load = model load time × the subtask's price, a session prepared ahead
     * by the driver included (its read and creation, spent before submission, are added to the
     * total as well). Total = every subtask held for the job's whole wall time. Idle = total −
     * busy − load.
     */
    private void cost(RunLedger l) {
        for (RunLedger.Lane lane : l.subtasks.values()) {
            double price = lane.pricePerHour;
            double ahead = lane.preparedAheadMs * price / 3_600_000.0;
            cost.busy += lane.costBusy;
            cost.load += lane.modelLoadMs * price / 3_600_000.0 + ahead;
            cost.total += ahead + wallSeconds * price / 3600.0;
        }
        cost.referencePricePer1MTokens = l.referencePricePer1MTokens;
        if (l.currency != null) {
            cost.currency = l.currency;
        }
        cost.idle = Math.max(0, cost.total - cost.busy - cost.load);
        long all = succeeded + failed;
        cost.perItem = all == 0 ? 0 : cost.total / all;
        cost.perSuccessfulItem = succeeded == 0 ? 0 : cost.total / succeeded;
        cost.per1MRealTokens = realTokens == 0 ? 0 : cost.total / realTokens * 1e6;
        cost.ratioToReference = cost.referencePricePer1MTokens > 0
                ? cost.per1MRealTokens / cost.referencePricePer1MTokens : 0;
    }

    private void series(RunLedger l, long submitted) {
        series.timeline = Timeline.of(l, submitted, wallSeconds);
        if (l.batches == 0) {
            return;
        }
        long t0 = l.subtasks.values().stream().filter(x -> x.batches > 0).mapToLong(x -> x.firstBatchAt).min().orElse(0);
        long t1 = l.subtasks.values().stream().mapToLong(x -> x.lastBatchEnd).max().orElse(t0);
        series.throughput = Timeline.throughput(l, t0, t1, 30);
        l.paddingByBucket.forEach((edge, p) -> series.paddingByBucket.put(edge, p[1] == 0 ? 1.0 : (double) p[0] / p[1]));
        l.tokenLengths.forEachBin((value, n) -> {
            int edge = 8;
            while (edge < value) {
                edge *= 2;
            }
            series.tokenLengthHistogram.merge(edge, n, Long::sum);
        });
        int latencyBins = 20;
        double lw = Math.max(1e-3, l.batchLatencyMs.max / latencyBins);
        long[] counts = new long[latencyBins];
        l.batchLatencyMs.forEachBin((value, n) -> counts[(int) Math.min(latencyBins - 1, value / lw)] += n);
        for (int i = 0; i < latencyBins; i++) {
            series.latencyHistogram.add(new double[] {(i + 1) * lw, counts[i]});
        }
    }

    /**
     * The wall time of a run: from its submission (run-info) when known, else from the first
     * subtask opening, to the job's end as its ledger recorded it (else the last batch's end).
     */
    static double wallSeconds(RunLedger l, long submittedAtMillis) {
        long opened = l.subtasks.values().stream().flatMap(x -> x.openedAt.stream()).mapToLong(Long::longValue)
                .min().orElse(0);
        long start = submittedAtMillis > 0 && (opened == 0 || submittedAtMillis <= opened) ? submittedAtMillis : opened;
        long lastBatch = l.subtasks.values().stream().mapToLong(x -> x.lastBatchEnd).max().orElse(0);
        long end = Math.max(l.endedAtMillis, lastBatch);
        return start <= 0 || end <= start ? 0 : (end - start) / 1000.0;
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

    /**
     * The end's mirror of the cold start: from the last batch to the job's end no batch runs (under
     * keep-first, the dedupe and then every write happen there), and a device would idle.
     */
    private void printTail(PrintStream out) {
        Timeline t = series.timeline;
        if (t.fromSubmission && t.tailSeconds() > 0 && t.lastBatchSeconds > 0) {
            out.printf("  tail               %.2f s from the last batch (%.2f s after submission) to the job's end"
                    + " (%.0f%% of the wall): no batch runs there%n", t.tailSeconds(),
                    t.lastBatchSeconds, 100 * t.tailSeconds() / t.endSeconds);
        }
    }

    public void print(PrintStream out) {
        out.printf("%n== run %s (%s, %d subtasks) ==%n", runId, model, subtasks);
        if (documents != null) {
            out.printf("  documents          %,d  (chunked: the counts below are token windows)%n", documents);
        }
        if (reconciliation != null) {
            out.printf("  accounting         %s%s%n", reconciliation.statement(),
                    reconciliation.ok() ? "" : "  MISMATCH: " + String.join("; ", reconciliation.mismatches()));
        }
        out.printf("  succeeded          %,d%n", succeeded);
        out.printf("  failed (errors/)   %,d %s%n", failed, errorsByReason.isEmpty() ? "" : errorsByReason);
        if (duplicates > 0) {
            out.printf("  duplicates         %,d  (dropped by --duplicates, in errors/ as duplicate_id)%n", duplicates);
        }
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
        if (bound != null && batches > 0) {
            out.printf("  bound              %s%n", bound.line());
        }
        printColdStart(out);
        printTail(out);
        if (afterJob != null) {
            out.printf("  after the job      %.2f s to the report written, %,d KiB allocated by the driver,"
                    + " heap peak %,d MiB (JVM)%n", afterJob.seconds(), afterJob.allocatedBytes() >> 10,
                    afterJob.peakHeapBytes() >> 20);
        }
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
            WorkloadVerdict.print(workloadVerdicts, workload, out);
        }
    }
}
