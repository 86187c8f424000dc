package io.github.flinkinfer.operators.ledger;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run's accounting, or one subtask's share of it: records read per source, dropped as
 * duplicates, skipped as unchanged, passed to the model, succeeded, failed by reason and written;
 * batch totals, fixed-size histograms, the cost inputs and the quality sample's aggregate; and a
 * bounded time line per subtask. Partial ledgers {@link #merge} into the job's; its size is
 * O(subtasks + sources) whatever the corpus. Written by the job as {@code ledger-<run-id>.json}
 * and read by the driver and {@code report} instead of the records (docs/errors.md, "Accounting").
 */
public final class RunLedger {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    static final String[] PHASES = {"queueWaitMs", "tokenizeMs", "tensorMs", "inferenceMs", "postprocessMs", "writeMs"};

    /** Inputs read, by source (a file's whole path, or topic-partition): parsed or failed to parse. */
    public Map<String, Long> readBySource = new TreeMap<>();
    /** Documents the parsers emitted. */
    public long parsed;
    /**
     * Documents parsed by each reader subtask (index → documents), and how many reader subtasks
     * there were (0: not known): how far the inputs spread over the readers.
     */
    public Map<Integer, Long> parsedByReader = new TreeMap<>();
    public int readers;
    /** Documents dropped by {@code --duplicates keep-first} (each also an error row, reason duplicate_id). */
    public long duplicates;
    /**
     * Duplicates that reached the model before they were dropped (keep-first after inference,
     * BATCH): each also counted in {@link #duplicates}, {@link #toModelDocs} and {@link #items}.
     */
    public long duplicatesInferred;
    /** Documents an incremental run did not infer (their earlier rows carried over). */
    public long skipped;
    public long skippedTokens;
    /** Documents the tokenizer passed to the model (chunked: documents with at least one window). */
    public long toModelDocs;
    /** Model inputs the tokenizer emitted: documents, or their windows when chunking. */
    public long items;
    /** Model inputs that became kept results (Σ batch items − failed items − duplicates' results dropped). */
    public long succeeded;
    /** Result rows handed to the result files; null when the task writes its results otherwise. */
    public Long written;
    /** Windows of chunked documents that failed (folded into one {@code window_failed} row per document). */
    public long failedWindows;
    /** Rows written that no model call of this run made: carried over, or pooled per document. */
    public long extraRows;
    /** Error rows by {@code stage/reason}, duplicates included. */
    public Map<String, Long> failedByReason = new TreeMap<>();

    public long batches;
    public long retries;
    public long realTokens;
    public long paddedTokens;
    public Map<String, Double> phaseMs = new LinkedHashMap<>();
    public LogHistogram batchLatencyMs = new LogHistogram();
    public LogHistogram queueWaitMs = new LogHistogram();
    /** Per-batch mean real tokens per item, weighted by the batch's items. */
    public LogHistogram tokenLengths = new LogHistogram();
    /** bucket edge → [real, padded] tokens. */
    public Map<Integer, long[]> paddingByBucket = new TreeMap<>();
    /** Latency bound of a workload card (queue wait + batch, ms); null when none. */
    public Long latencyBoundMs;
    /** Succeeded items of batches within {@link #latencyBoundMs} (all of them without a bound). */
    public long withinLatencyBound;
    public Quality quality = new Quality();
    public String model;
    public String currency;
    public double referencePricePer1MTokens;
    /** Parallelism of the inference operator. */
    public int inferenceSubtasks;
    public Map<Integer, Lane> subtasks = new TreeMap<>();
    /** Epoch millis at which the last partial arrived at the end of input (the job's end). */
    public long endedAtMillis;

    public RunLedger() {
        for (String p : PHASES) {
            phaseMs.put(p, 0.0);
        }
    }

    /**
     * The quality gate's sample (a reservoir per subtask, see QualitySample): batch rows carry the
     * change of their subtask's sample, so checked and sum add up; its minimum is each lane's
     * latest ({@link #qualityMin()}).
     */
    public static final class Quality {
        public long checked;
        public String metric;
        public double sum;

        void merge(Quality o) {
            checked += o.checked;
            sum += o.sum;
            metric = o.metric != null ? o.metric : metric;
        }
    }

    /** One inference subtask's time line and cost inputs (bounded: at most 256 segments). */
    public static final class Lane {
        static final int MAX_SEGMENTS = 256;

        /** Epoch millis of each opening (one per attempt that ran batches). */
        public List<Long> openedAt = new ArrayList<>();
        /** [opened, load ms] of each model load. */
        public List<long[]> modelLoads = new ArrayList<>();
        public long firstBatchAt;
        /** Epoch millis of its first input (the earliest over attempts); 0 = not known (older runs). */
        public long firstInputAt;
        public long lastBatchEnd;
        public double busyMs;
        public long items;
        public long failedItems;
        public long batches;
        public double pricePerHour;
        public double costBusy;
        public long modelLoadMs;
        public long modelReadMs;
        public long sessionCreateMs;
        public long warmUpMs;
        public long tokenizerLoadMs;
        /** Read + creation of sessions the driver prepared ahead (charged as load, added to the total). */
        public long preparedAheadMs;
        public boolean sessionPrepared;
        public String graphCache;
        public String device;
        public String deviceRequested;
        /** Items its quality sample has seen, and the sample's minimum then (its latest row's). */
        public long qualitySeen;
        public double qualityMin = 1.0;
        /** [start, end, items] epoch millis of its batches, adjacent ones merged to stay bounded. */
        public List<double[]> segments = new ArrayList<>();
        /** Its TaskManager process ({@code pid@host}), that process's cores, and its CPU ms at this lane's first and last batch end (-1 unknown). */
        public String process;
        public int processCores;
        public long processCpuFirstMs = -1;
        public long processCpuLastMs = -1;
        /** Epoch millis of the batch end at which {@link #processCpuFirstMs} was sampled. */
        public long processCpuFirstAt;

        void add(BatchMetrics m) {
            long opened = m.subtaskOpenedAtMillis > 0 ? m.subtaskOpenedAtMillis : m.startedAtMillis;
            if (m.subtaskOpenedAtMillis > 0 ? !openedAt.contains(opened) : openedAt.isEmpty()) {
                openedAt.add(opened);
            }
            if (m.modelLoadMs > 0 || m.sessionPrepared) {
                modelLoads.add(new long[] {opened, m.modelLoadMs});
                modelReadMs += m.modelReadMs;
                sessionCreateMs += m.sessionCreateMs;
                warmUpMs += m.warmUpMs;
                tokenizerLoadMs += m.tokenizerLoadMs;
                sessionPrepared |= m.sessionPrepared;
                if (m.sessionPrepared) {
                    preparedAheadMs += m.modelReadMs + m.sessionCreateMs;
                }
            }
            modelLoadMs += m.modelLoadMs;
            if (m.graphCache != null) {
                graphCache = m.graphCache;
            }
            if (m.device != null) {
                device = m.device;
                deviceRequested = m.deviceRequested;
            }
            if (m.processCpuMs >= 0) {
                process = m.process;
                processCores = m.processCores;
                if (processCpuFirstMs < 0 || m.processCpuMs < processCpuFirstMs) {
                    processCpuFirstMs = m.processCpuMs;
                    processCpuFirstAt = m.startedAtMillis + (long) m.totalMs;
                }
                processCpuLastMs = Math.max(processCpuLastMs, m.processCpuMs);
            }
            firstInputAt = earliest(firstInputAt, m.firstInputAtMillis);
            long end = m.startedAtMillis + (long) m.totalMs;
            firstBatchAt = batches == 0 ? m.startedAtMillis : Math.min(firstBatchAt, m.startedAtMillis);
            lastBatchEnd = Math.max(lastBatchEnd, end);
            busyMs += m.totalMs;
            items += m.items;
            failedItems += m.failedItems;
            batches++;
            pricePerHour = m.subtaskPricePerHour;
            costBusy += m.costBusy;
            if (m.qualityMetric != null && m.qualitySeen >= qualitySeen) {
                qualitySeen = m.qualitySeen;
                qualityMin = m.qualityMin;
            }
            segments.add(new double[] {m.startedAtMillis, m.startedAtMillis + m.totalMs, m.items - m.failedItems});
            compact();
        }

        /** The earlier of two epoch times, 0 being unknown. */
        private static long earliest(long a, long b) {
            return a == 0 ? b : b == 0 ? a : Math.min(a, b);
        }

        void merge(Lane o) {
            for (Long t : o.openedAt) {
                if (!openedAt.contains(t)) {
                    openedAt.add(t);
                }
            }
            modelLoads.addAll(o.modelLoads);
            firstBatchAt = batches == 0 ? o.firstBatchAt : o.batches == 0 ? firstBatchAt : Math.min(firstBatchAt, o.firstBatchAt);
            firstInputAt = earliest(firstInputAt, o.firstInputAt);
            lastBatchEnd = Math.max(lastBatchEnd, o.lastBatchEnd);
            if (o.processCpuFirstMs >= 0) {
                process = o.process;
                processCores = o.processCores;
                if (processCpuFirstMs < 0 || o.processCpuFirstMs < processCpuFirstMs) {
                    processCpuFirstMs = o.processCpuFirstMs;
                    processCpuFirstAt = o.processCpuFirstAt;
                }
                processCpuLastMs = Math.max(processCpuLastMs, o.processCpuLastMs);
            }
            busyMs += o.busyMs;
            items += o.items;
            failedItems += o.failedItems;
            batches += o.batches;
            pricePerHour = o.batches > 0 ? o.pricePerHour : pricePerHour;
            costBusy += o.costBusy;
            modelLoadMs += o.modelLoadMs;
            modelReadMs += o.modelReadMs;
            sessionCreateMs += o.sessionCreateMs;
            warmUpMs += o.warmUpMs;
            tokenizerLoadMs += o.tokenizerLoadMs;
            preparedAheadMs += o.preparedAheadMs;
            sessionPrepared |= o.sessionPrepared;
            graphCache = o.graphCache != null ? o.graphCache : graphCache;
            device = o.device != null ? o.device : device;
            deviceRequested = o.deviceRequested != null ? o.deviceRequested : deviceRequested;
            if (o.qualitySeen >= qualitySeen && o.qualitySeen > 0) {
                qualitySeen = o.qualitySeen;
                qualityMin = o.qualityMin;
            }
            segments.addAll(o.segments);
            segments.sort((a, b) -> Double.compare(a[0], b[0]));
            compact();
        }

        /** Halves the segments by merging neighbours once there are too many. */
        private void compact() {
            while (segments.size() > MAX_SEGMENTS) {
                List<double[]> merged = new ArrayList<>(segments.size() / 2 + 1);
                for (int i = 0; i < segments.size(); i += 2) {
                    double[] a = segments.get(i);
                    if (i + 1 < segments.size()) {
                        double[] b = segments.get(i + 1);
                        merged.add(new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1]), a[2] + b[2]});
                    } else {
                        merged.add(a);
                    }
                }
                segments = merged;
            }
        }
    }

    /** Where a record came from, without its line or offset: the file's path, or topic-partition. */
    public static String sourceOf(String position) {
        if (position == null) {
            return "unknown";
        }
        int cut = Math.max(position.lastIndexOf(':'), position.lastIndexOf('@'));
        if (cut > 0 && cut < position.length() - 1 && position.substring(cut + 1).chars().allMatch(Character::isDigit)) {
            return position.substring(0, cut);
        }
        return position;
    }

    /**
     * A document the parsers emitted. Per record, so the count of the current source is kept in a
     * field until the source changes (a reader reads one file at a time): no map lookup, no
     * substring per record.
     */
    public void addParsed(String position) {
        parsed++;
        if (currentSource == null || !ofSource(position, currentSource)) {
            settle();
            currentSource = sourceOf(position);
        }
        currentCount++;
    }

    @JsonIgnore private transient String currentSource;
    @JsonIgnore private transient long currentCount;

    /** Whether {@code position} is a line or offset of {@code source}. */
    private static boolean ofSource(String position, String source) {
        int n = source.length();
        return position.length() > n + 1 && position.startsWith(source)
                && (position.charAt(n) == ':' || position.charAt(n) == '@')
                && Math.max(position.lastIndexOf(':'), position.lastIndexOf('@')) == n;
    }

    /** Adds the current source's pending count to {@link #readBySource}. */
    private void settle() {
        if (currentCount > 0) {
            readBySource.merge(currentSource, currentCount, Long::sum);
            currentCount = 0;
        }
    }

    /** An error row; a parse failure is also an input read from its source. */
    public void addError(ErrorRecord e) {
        failedByReason.merge(e.stage + "/" + e.reason, 1L, Long::sum);
        if (ErrorReason.DUPLICATE_ID.code().equals(e.reason)) {
            duplicates++;
        } else if (ErrorRecord.PARSE.equals(e.stage)) {
            readBySource.merge(sourceOf(e.source), 1L, Long::sum);
        }
    }

    /** One model input from the tokenizer; {@code firstOfDocument}: it opens its document. */
    public void addItem(boolean firstOfDocument) {
        items++;
        if (firstOfDocument) {
            toModelDocs++;
        }
    }

    /** A duplicate dropped after inference; {@code succeeded}: its result row is not written. */
    public void addDuplicateInferred(boolean succeeded) {
        duplicatesInferred++;
        if (succeeded) {
            this.succeeded--;
        }
    }

    public void addSkipped(long tokens) {
        skipped++;
        skippedTokens += tokens;
    }

    public void addWritten() {
        written = written == null ? 1 : written + 1;
    }

    public void addExtraRow() {
        extraRows++;
    }

    public void addFailedWindow() {
        failedWindows++;
    }

    /** One batch's metrics row. */
    public void addBatch(BatchMetrics m) {
        batches++;
        succeeded += m.items - m.failedItems;
        retries += m.retries;
        realTokens += m.realTokens;
        paddedTokens += m.paddedTokens;
        phaseMs.merge("queueWaitMs", m.queueWaitMs, Double::sum);
        phaseMs.merge("tokenizeMs", m.tokenizeMs, Double::sum);
        phaseMs.merge("tensorMs", m.tensorMs, Double::sum);
        phaseMs.merge("inferenceMs", m.inferenceMs, Double::sum);
        phaseMs.merge("postprocessMs", m.postprocessMs, Double::sum);
        phaseMs.merge("writeMs", m.writeMs, Double::sum);
        batchLatencyMs.add(m.totalMs);
        queueWaitMs.add(m.queueWaitMs);
        if (m.items > 0) {
            tokenLengths.add((double) m.realTokens / m.items, m.items);
        }
        long[] p = paddingByBucket.computeIfAbsent(m.bucketEdge, k -> new long[2]);
        p[0] += m.realTokens;
        p[1] += m.paddedTokens;
        if (latencyBoundMs == null || m.queueWaitMs + m.totalMs <= latencyBoundMs) {
            withinLatencyBound += m.items - m.failedItems;
        }
        if (m.qualityMetric != null) {
            quality.checked += m.qualityChecked;
            quality.sum += m.qualitySum;
            quality.metric = m.qualityMetric;
        }
        model = m.model;
        currency = m.currency != null ? m.currency : currency;
        referencePricePer1MTokens = m.referencePricePer1MTokens;
        inferenceSubtasks = Math.max(inferenceSubtasks, Math.max(1, m.subtasks));
        subtasks.computeIfAbsent(m.subtask, k -> new Lane()).add(m);
    }

    /**
     * Marks a partial as subtask {@code subtask}'s of {@code of}: the documents it parsed are that
     * reader's ({@link #parsedByReader}). A partial of any other stage parsed none.
     */
    public void madeBy(int subtask, int of) {
        if (parsed > 0) {
            parsedByReader.merge(subtask, parsed, Long::sum);
            readers = Math.max(readers, of);
        }
    }

    /** Adds {@code o} to this ledger (partials of subtasks, stages and checkpoints). */
    public void merge(RunLedger o) {
        settle();
        o.settle();
        o.readBySource.forEach((k, v) -> readBySource.merge(k, v, Long::sum));
        parsed += o.parsed;
        o.parsedByReader.forEach((k, v) -> parsedByReader.merge(k, v, Long::sum));
        readers = Math.max(readers, o.readers);
        duplicates += o.duplicates;
        duplicatesInferred += o.duplicatesInferred;
        skipped += o.skipped;
        skippedTokens += o.skippedTokens;
        toModelDocs += o.toModelDocs;
        items += o.items;
        succeeded += o.succeeded;
        if (o.written != null) {
            written = (written == null ? 0 : written) + o.written;
        }
        extraRows += o.extraRows;
        failedWindows += o.failedWindows;
        o.failedByReason.forEach((k, v) -> failedByReason.merge(k, v, Long::sum));
        batches += o.batches;
        retries += o.retries;
        realTokens += o.realTokens;
        paddedTokens += o.paddedTokens;
        o.phaseMs.forEach((k, v) -> phaseMs.merge(k, v, Double::sum));
        batchLatencyMs.merge(o.batchLatencyMs);
        queueWaitMs.merge(o.queueWaitMs);
        tokenLengths.merge(o.tokenLengths);
        o.paddingByBucket.forEach((k, v) -> {
            long[] p = paddingByBucket.computeIfAbsent(k, x -> new long[2]);
            p[0] += v[0];
            p[1] += v[1];
        });
        latencyBoundMs = o.latencyBoundMs != null ? o.latencyBoundMs : latencyBoundMs;
        withinLatencyBound += o.withinLatencyBound;
        quality.merge(o.quality);
        model = o.model != null ? o.model : model;
        currency = o.currency != null ? o.currency : currency;
        referencePricePer1MTokens = Math.max(referencePricePer1MTokens, o.referencePricePer1MTokens);
        inferenceSubtasks = Math.max(inferenceSubtasks, o.inferenceSubtasks);
        o.subtasks.forEach((k, v) -> subtasks.computeIfAbsent(k, x -> new Lane()).merge(v));
        endedAtMillis = Math.max(endedAtMillis, o.endedAtMillis);
    }

    /** The quality sample's minimum: over the subtasks' samples as they ended (1.0 when empty). */
    public double qualityMin() {
        return subtasks.values().stream().filter(l -> l.qualitySeen > 0).mapToDouble(l -> l.qualityMin)
                .min().orElse(1.0);
    }

    /** Inputs read from every source. */
    @JsonIgnore
    public long read() {
        settle();
        return readBySource.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Error rows, duplicates included. */
    @JsonIgnore
    public long errorRows() {
        return failedByReason.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Error rows of the stages before the model (parse, dedupe, tokenize), duplicates excluded. */
    @JsonIgnore
    public long failedBeforeModel() {
        return errorRowsOf(ErrorRecord.PARSE) + errorRowsOf(ErrorRecord.TOKENIZE) - duplicates;
    }

    /**
     * Documents to the model that no error row after the model names: those with a result. A
     * chunked document counts once (its windows are items), and a failed one has exactly one row
     * after the model (its {@code window_failed} row, or the row of its single window).
     */
    @JsonIgnore
    public long documentsWithResult() {
        return toModelDocs - (errorRows() - errorRowsOf(ErrorRecord.PARSE) - errorRowsOf(ErrorRecord.TOKENIZE));
    }

    /** Inputs read that failed to parse (duplicates, also parse-stage rows, excluded). */
    @JsonIgnore
    public long failedToParse() {
        return errorRowsOf(ErrorRecord.PARSE) - duplicates;
    }

    private long errorRowsOf(String stage) {
        long n = 0;
        for (Map.Entry<String, Long> e : failedByReason.entrySet()) {
            if (e.getKey().startsWith(stage + "/")) {
                n += e.getValue();
            }
        }
        return n;
    }

    /**
     * Model inputs that failed: the error rows of inference, post-processing and writing, where a
     * chunked document's failed windows count as windows (its one {@code window_failed} row is a
     * document's).
     */
    @JsonIgnore
    public long failedItems() {
        return errorRows() - failedBeforeModel() - duplicates - documentsWithFailedWindows() + failedWindows;
    }

    /** Documents whose windows failed: one {@code window_failed} error row each. */
    @JsonIgnore
    public long documentsWithFailedWindows() {
        return failedByReason.getOrDefault(ErrorReason.WINDOW_FAILED.qualified(), 0L);
    }

    /** Failed inputs (duplicates are counted apart: dropped by policy, not failed). */
    @JsonIgnore
    public long failed() {
        return errorRows() - duplicates;
    }

    /** The counts every reader of the run shows (console, report, manifest, pushed metrics). */
    public RunCounts counts() {
        return RunCounts.of(this);
    }

    /** Whether every input read is accounted for exactly once (docs/errors.md, "Accounting"). */
    public Reconciliation reconcile() {
        return Reconciliation.of(this);
    }

    public String toJson() {
        settle();
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RunLedger fromJson(String json) {
        try {
            return JSON.readValue(json, RunLedger.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Not a run ledger: " + e.getMessage(), e);
        }
    }
}
