package io.github.flinkinfer.jobs.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.spec.RunDescription;
import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.github.flinkinfer.operators.ledger.Reconciliation;
import io.github.flinkinfer.operators.ledger.RunCounts;
import io.github.flinkinfer.operators.ledger.RunLedger;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Job-wide totals, cost and chart series of one run, computed once from the ledger its job wrote
 * ({@link RunLedger}: counts, fixed-size histograms, a bounded time line per subtask), never from
 * its records, and from the run's description read back as data ({@link RunDescription} in its
 * run-info, never its flags), so the driver's work after a job and {@code report}'s are O(subtasks
 * + sources) and both give the same numbers. Immutable: the driver hands its own measurements (the
 * embedded cluster's start) to the one factory instead of patching the result. Batch latency
 * percentiles come from a histogram of all batches of all subtasks (within 10% of the exact nearest
 * rank); they are never averaged across subtasks.
 *
 * <pre>{@code
 * RunSummary s = RunSummary.read(out, clusterStart); // clusterStart: null when rebuilt by report
 * s.print(System.out);
 * }</pre>
 */
public final class RunSummary {

    public final String runId;
    public final String model;
    /** Inputs read from every source (the ledger's {@code readBySource}). */
    public final long read;
    /** Inputs dropped as duplicate ids (error rows with reason duplicate_id, never in {@link #failed}). */
    public final long duplicates;
    public final long succeeded;
    /**
     * Chunked moderation runs: documents that got a verdict ({@code succeeded}, {@code failed}
     * and the rates count windows there); {@code null} otherwise.
     */
    public final Long documents;
    /** Inputs that failed, each once with a reason (error rows other than duplicates; {@link RunCounts}). */
    public final long failed;
    /** Incremental runs: documents not inferred because an earlier run's rows were reused. */
    public final long skippedUnchanged;
    /** Tokens those documents would have run through the model. */
    public final long skippedTokens;
    /** {@link #failed} by {@code stage/reason} (duplicates apart, in {@link #duplicates}). */
    public final Map<String, Long> errorsByReason;
    public final long batches;
    public final long realTokens;
    public final long paddedTokens;
    public final double paddingEfficiency;
    public final long retries;
    public final int subtasks;
    /** Wall time of the whole job (driver-measured; from the records when rebuilt). */
    public final double wallSeconds;
    /** Job-wide: successful items / wall seconds (start-up, load and idle included). */
    public final double itemsPerSecond;
    /** Job-wide: real (unpadded) tokens / wall seconds. */
    public final double realTokensPerSecond;
    public final Map<String, Double> batchLatencyMs;
    public final Map<String, Double> phaseTotalsMs;
    /** What bounds the run: device busy and the host stage that kept it waiting (docs/measurement.md). */
    public final RunBound bound;
    public final Cost cost;
    public final Quality quality;
    public final Series series;
    /** Settings, spec, model, versions and machine, from {@code run-info-<run-id>.json} when present. */
    public final JsonNode runInfo;
    /** {@code --workload} runs: the card's clauses and the plan's forecast (from the run-info); else null. */
    public final WorkloadContract workload;
    /** {@code --workload} runs: the verdict per clause (docs/workload.md, "Verdicts"); else null. */
    public final List<WorkloadVerdict> workloadVerdicts;
    /** Succeeded items of batches within a workload card's latency bound (all without one). */
    public final long withinLatencyBound;
    /** Whether every input is accounted for once: read = succeeded + failed + skipped + duplicates. */
    public final Reconciliation reconciliation;
    /** The job's accounting this summary was made from (the manifest's body). */
    @JsonIgnore
    public final RunLedger ledger;
    /**
     * The driver's work after the job, to the report written (null when rebuilt by {@code report}):
     * what must stay flat whatever the corpus (docs/benchmarks/scale-*.md).
     */
    @JsonIgnore
    public final DriverWork.Measured afterJob;
    /** Runs on the embedded cluster: how long it took to start, and when against submission; else null. */
    public final ClusterStart clusterStart;
    /** What the run was decided to be, read back from its run-info; null without one. */
    @JsonIgnore
    public final RunDescription spec;

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
        public final String currency;
        public final double busy;
        public final double load;
        public final double idle;
        public final double total;
        public final double perItem;
        public final double perSuccessfulItem;
        public final double per1MRealTokens;
        public final double referencePricePer1MTokens;
        /** Our cost per 1M tokens / the reference price (below 1 = cheaper); 0 when no reference. */
        public final double ratioToReference;
        /** Estimated cost of the skipped documents: skipped tokens at this run's cost per real token. */
        public final double savedEstimate;

        /** A cost of {@code total} split into busy, load and idle; the rates follow from the counts. */
        public Cost(String currency, double busy, double load, double total, double referencePricePer1MTokens,
                long succeeded, long failed, long realTokens, long skippedTokens) {
            this.currency = currency;
            this.busy = busy;
            this.load = load;
            this.total = total;
            this.idle = Math.max(0, total - busy - load);
            long all = succeeded + failed;
            this.perItem = all == 0 ? 0 : total / all;
            this.perSuccessfulItem = succeeded == 0 ? 0 : total / succeeded;
            this.per1MRealTokens = realTokens == 0 ? 0 : total / realTokens * 1e6;
            this.referencePricePer1MTokens = referencePricePer1MTokens;
            this.ratioToReference = referencePricePer1MTokens > 0 ? per1MRealTokens / referencePricePer1MTokens : 0;
            this.savedEstimate = realTokens == 0 ? 0 : total / realTokens * skippedTokens;
        }

        /**
         * Busy = Σ batch costs. Load = model load time × the subtask's price, a session prepared
         * ahead by the driver included (its read and creation, spent before submission, are added
         * to the total as well). Total = every subtask held for the job's whole wall time. Idle =
         * total − busy − load.
         */
        static Cost of(RunLedger l, double wallSeconds, long succeeded, long failed) {
            double busy = 0;
            double load = 0;
            double total = 0;
            for (RunLedger.Lane lane : l.subtasks.values()) {
                double price = lane.pricePerHour;
                double ahead = lane.preparedAheadMs * price / 3_600_000.0;
                busy += lane.costBusy;
                load += lane.modelLoadMs * price / 3_600_000.0 + ahead;
                total += ahead + wallSeconds * price / 3600.0;
            }
            return new Cost(l.currency != null ? l.currency : "USD", busy, load, total,
                    l.referencePricePer1MTokens, succeeded, failed, l.realTokens, l.skippedTokens);
        }
    }

    /** The quality gate's sample: outputs re-run alone through the reference model. */
    public static final class Quality {
        /** Nothing sampled. */
        public static final Quality NONE = new Quality(0, null, 1.0, 0);

        public final long checked;
        /** {@code cosine} or {@code label_agreement}. */
        public final String metric;
        public final double min;
        public final double mean;

        public Quality(long checked, String metric, double min, double mean) {
            this.checked = checked;
            this.metric = metric;
            this.min = min;
            this.mean = mean;
        }

        static Quality of(RunLedger l) {
            return new Quality(l.quality.checked, l.quality.metric, l.qualityMin(),
                    l.quality.checked == 0 ? 0 : l.quality.sum / l.quality.checked);
        }
    }

    /** Chart data. */
    public static final class Series {
        /** [seconds since the first batch started, items/s] per time bin (see also the timeline). */
        public final List<double[]> throughput;
        /** [upper edge ms, batches] per latency bin. */
        public final List<double[]> latencyHistogram;
        /** bucket edge → padding efficiency of its batches. */
        public final Map<Integer, Double> paddingByBucket;
        /** token length upper edge → items (per-batch mean lengths, weighted by items). */
        public final Map<Integer, Long> tokenLengthHistogram;
        /** The whole run from submission: start-up, model loads and batches per subtask, throughput. */
        public final Timeline timeline;

        private Series(List<double[]> throughput, List<double[]> latencyHistogram, Map<Integer, Double> paddingByBucket,
                Map<Integer, Long> tokenLengthHistogram, Timeline timeline) {
            this.throughput = Collections.unmodifiableList(throughput);
            this.latencyHistogram = Collections.unmodifiableList(latencyHistogram);
            this.paddingByBucket = Collections.unmodifiableMap(paddingByBucket);
            this.tokenLengthHistogram = Collections.unmodifiableMap(tokenLengthHistogram);
            this.timeline = timeline;
        }

        static Series of(RunLedger l, long submitted, double wallSeconds) {
            Timeline timeline = Timeline.of(l, submitted, wallSeconds);
            if (l.batches == 0) {
                return new Series(new ArrayList<>(), new ArrayList<>(), new TreeMap<>(), new TreeMap<>(), timeline);
            }
            long t0 = l.subtasks.values().stream().filter(x -> x.batches > 0).mapToLong(x -> x.firstBatchAt).min().orElse(0);
            long t1 = l.subtasks.values().stream().mapToLong(x -> x.lastBatchEnd).max().orElse(t0);
            Map<Integer, Double> padding = new TreeMap<>();
            l.paddingByBucket.forEach((edge, p) -> padding.put(edge, p[1] == 0 ? 1.0 : (double) p[0] / p[1]));
            Map<Integer, Long> lengths = new TreeMap<>();
            l.tokenLengths.forEachBin((value, n) -> {
                int edge = 8;
                while (edge < value) {
                    edge *= 2;
                }
                lengths.merge(edge, n, Long::sum);
            });
            int latencyBins = 20;
            double lw = Math.max(1e-3, l.batchLatencyMs.max / latencyBins);
            long[] counts = new long[latencyBins];
            l.batchLatencyMs.forEachBin((value, n) -> counts[(int) Math.min(latencyBins - 1, value / lw)] += n);
            List<double[]> latency = new ArrayList<>();
            for (int i = 0; i < latencyBins; i++) {
                latency.add(new double[] {(i + 1) * lw, counts[i]});
            }
            return new Series(Timeline.throughput(l, t0, t1, 30), latency, padding, lengths, timeline);
        }
    }

    /** The summary of {@code l} for a run described by {@code runInfo}, as {@link #of} documents. */
    private RunSummary(String runId, RunLedger l, JsonNode runInfo, ClusterStart clusterStart) {
        RunCounts counts = l.counts(); // the manifest's, the pushed metrics' and the console's
        long submitted = runInfo == null ? 0 : runInfo.path("submittedAtMillis").asLong(0);
        this.runId = runId;
        this.runInfo = runInfo;
        this.spec = RunDescription.read(runInfo);
        this.ledger = l;
        this.reconciliation = l.reconcile();
        this.model = l.model;
        this.read = counts.read();
        this.duplicates = counts.duplicates();
        this.succeeded = counts.succeeded();
        this.failed = counts.failed();
        this.errorsByReason = Collections.unmodifiableMap(new TreeMap<>(counts.failedByReason()));
        this.skippedUnchanged = counts.skipped();
        this.skippedTokens = l.skippedTokens;
        this.batches = l.batches;
        this.retries = l.retries;
        this.realTokens = l.realTokens;
        this.paddedTokens = l.paddedTokens;
        this.subtasks = Math.max(1, l.inferenceSubtasks);
        this.withinLatencyBound = l.withinLatencyBound;
        this.phaseTotalsMs = Collections.unmodifiableMap(new LinkedHashMap<>(l.phaseMs));
        this.paddingEfficiency = paddedTokens == 0 ? 1 : (double) realTokens / paddedTokens;
        Map<String, Double> latency = new LinkedHashMap<>();
        for (int p : new int[] {50, 90, 95, 99}) {
            latency.put("p" + p, l.batchLatencyMs.percentile(p));
        }
        latency.put("max", l.batchLatencyMs.max);
        this.batchLatencyMs = Collections.unmodifiableMap(latency);
        this.quality = Quality.of(l);
        this.wallSeconds = wallSeconds(l, submitted);
        this.itemsPerSecond = wallSeconds > 0 ? succeeded / wallSeconds : 0;
        this.realTokensPerSecond = wallSeconds > 0 ? realTokens / wallSeconds : 0;
        this.cost = Cost.of(l, wallSeconds, succeeded, failed);
        this.series = Series.of(l, submitted, wallSeconds);
        this.bound = RunBound.of(l, spec == null ? 0 : spec.tokenizeParallelism());
        // items are windows in a chunked classification; say how many documents
        this.documents = spec != null && spec.chunkedClassification() ? l.documentsWithResult() : null;
        this.clusterStart = clusterStart;
        this.workload = WorkloadContract.fromRunInfo(runInfo);
        this.workloadVerdicts = workload == null ? null : List.copyOf(WorkloadVerdicts.judge(workload,
                new WorkloadVerdicts.Actuals(wallSeconds, succeeded, failed, withinLatencyBound, cost, quality),
                submitted));
        this.afterJob = null;
    }

    /** {@code s} with the driver's work after the job, measured once its report was written. */
    private RunSummary(RunSummary s, DriverWork.Measured afterJob) {
        this.runId = s.runId;
        this.model = s.model;
        this.read = s.read;
        this.duplicates = s.duplicates;
        this.succeeded = s.succeeded;
        this.documents = s.documents;
        this.failed = s.failed;
        this.skippedUnchanged = s.skippedUnchanged;
        this.skippedTokens = s.skippedTokens;
        this.errorsByReason = s.errorsByReason;
        this.batches = s.batches;
        this.realTokens = s.realTokens;
        this.paddedTokens = s.paddedTokens;
        this.paddingEfficiency = s.paddingEfficiency;
        this.retries = s.retries;
        this.subtasks = s.subtasks;
        this.wallSeconds = s.wallSeconds;
        this.itemsPerSecond = s.itemsPerSecond;
        this.realTokensPerSecond = s.realTokensPerSecond;
        this.batchLatencyMs = s.batchLatencyMs;
        this.phaseTotalsMs = s.phaseTotalsMs;
        this.bound = s.bound;
        this.cost = s.cost;
        this.quality = s.quality;
        this.series = s.series;
        this.runInfo = s.runInfo;
        this.workload = s.workload;
        this.workloadVerdicts = s.workloadVerdicts;
        this.withinLatencyBound = s.withinLatencyBound;
        this.reconciliation = s.reconciliation;
        this.ledger = s.ledger;
        this.clusterStart = s.clusterStart;
        this.spec = s.spec;
        this.afterJob = afterJob;
    }

    /**
     * Reads a run's ledger (written by the job at its end) and run info from its output (any file
     * system): a few files, whatever the corpus. Refuses a run without a ledger: its job did not
     * finish, or still runs.
     */
    public static RunSummary read(RunOutput output) throws IOException {
        return read(output, null);
    }

    /** As {@link #read(RunOutput)}, for a run whose embedded cluster started as {@code clusterStart} said. */
    public static RunSummary read(RunOutput output, ClusterStart clusterStart) throws IOException {
        if (!output.exists(output.ledger())) {
            throw new IllegalArgumentException("Run '" + output.runId() + "' under " + output.root()
                    + " has no " + output.ledger().getName() + ": its job has not finished (still"
                    + " running, failed or cancelled), so there is nothing to report or mark");
        }
        RunLedger ledger = RunLedger.fromJson(output.read(output.ledger()));
        JsonNode runInfo = output.exists(output.runInfo())
                ? new ObjectMapper().readTree(output.read(output.runInfo())) : null;
        return of(output.runId(), ledger, runInfo, clusterStart);
    }

    /**
     * The summary of a run's ledger, its workload card's verdicts included: the driver's after its
     * job and {@code report}'s later are the same, wall time included (submission to the job's end,
     * as the ledger recorded it). {@code runInfo} (null when missing) gives the submission time, the
     * run's description ({@link RunDescription#read}) and its workload card; {@code clusterStart}
     * is the driver's measurement of the embedded cluster (null when rebuilt by {@code report}).
     */
    public static RunSummary of(String runId, RunLedger ledger, JsonNode runInfo, ClusterStart clusterStart) {
        return new RunSummary(runId, ledger, runInfo, clusterStart);
    }

    /** This summary with the driver's work after the job, measured once its report was written. */
    public RunSummary withAfterJob(DriverWork.Measured measured) {
        return new RunSummary(this, measured);
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
                "  cold start         first batch %.2f s after %s%s; %smodel read+sha256 %.2f s, session %.2f s"
                        + " (graph cache %s%s), warm-up %.2f s, tokenizer %.2f s (slowest subtask)%n",
                t.firstBatchSeconds, t.fromSubmission ? "submission" : "the first subtask opened",
                t.firstInputSeconds == null ? "" : String.format(Locale.ROOT, " (first input %.2f s)", t.firstInputSeconds),
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

    /**
     * How far the inputs spread over the reader subtasks: one line where there were several, which
     * says where some had nothing to read (fewer files or ranges than readers, a CSV without
     * quotes, fewer Kafka partitions).
     */
    private void printReaders(PrintStream out) {
        if (ledger == null || ledger.readers <= 1 || ledger.parsedByReader.isEmpty()) {
            return;
        }
        java.util.LongSummaryStatistics each = ledger.parsedByReader.values().stream()
                .mapToLong(Long::longValue).summaryStatistics();
        int reading = ledger.parsedByReader.size();
        String counts = each.getMin() == each.getMax() ? String.format("%,d", each.getMax())
                : String.format("%,d to %,d", each.getMin(), each.getMax());
        out.printf("  readers            %d of %d reader subtasks parsed documents (%s each)%s%n",
                reading, ledger.readers, counts, reading < ledger.readers
                        ? "; the others had no input to read (docs/operations.md, \"Input splits\")" : "");
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
        printReaders(out);
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
