package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.operators.ledger.RunLedger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The whole run on one time axis, from submission to the last batch: per subtask its start-up,
 * model load(s) and batches (a Gantt strip, where stragglers and idle time show, which is what the
 * idle cost is made of), and the job's throughput over the same axis. Built once from the run's
 * ledger (a bounded list of batch segments per subtask), then unchanged; times are seconds since
 * {@link #startMillis}.
 */
public final class Timeline {
    /** Segments closer than this share of the axis are merged, so a lane stays small. */
    static final double RESOLUTION = 1.0 / 2000;
    static final int THROUGHPUT_BINS = 60;

    /** Epoch millis of time 0: the job's submission when known, else the first subtask opening. */
    public final long startMillis;
    /** True when {@link #startMillis} is the driver's submission time. */
    public final boolean fromSubmission;
    /** Seconds from time 0 to the end of the run (the later of the driver's wall and the last batch). */
    public final double endSeconds;
    /** Seconds from time 0 to the start of the first batch: the cold start. */
    public final double firstBatchSeconds;
    /**
     * Seconds from time 0 to the first input any inference subtask received; null where the
     * ledger predates it. Of the cold start, what comes before it is start-up and waiting for input
     * (the read, keep-first's id pass); from it to {@link #firstBatchSeconds}, filling a batch.
     */
    public final Double firstInputSeconds;
    /**
     * Seconds from time 0 to the end of the last batch; from there to {@link #endSeconds} no batch
     * runs (the dedupe after inference, the writers after it, the commit): a device's idle tail.
     */
    public final double lastBatchSeconds;
    public final List<Lane> subtasks;
    /** [bin end (s), items/s] over [0, endSeconds]. */
    public final List<double[]> throughput;

    private Timeline(long startMillis, boolean fromSubmission, double endSeconds, double firstBatchSeconds,
            Double firstInputSeconds, double lastBatchSeconds, List<Lane> subtasks, List<double[]> throughput) {
        this.startMillis = startMillis;
        this.fromSubmission = fromSubmission;
        this.endSeconds = endSeconds;
        this.firstBatchSeconds = firstBatchSeconds;
        this.firstInputSeconds = firstInputSeconds;
        this.lastBatchSeconds = lastBatchSeconds;
        this.subtasks = List.copyOf(subtasks);
        this.throughput = Collections.unmodifiableList(throughput);
    }

    /** Seconds from the end of the last batch to the job's end: the tail, where no batch runs. */
    public double tailSeconds() {
        return endSeconds - lastBatchSeconds;
    }

    /** One subtask's time line. */
    public static final class Lane {
        public final int subtask;
        /** Seconds at which the subtask opened (its model load started); one per attempt. */
        public final List<Double> openedAt;
        /** [start, end] (s) of each model load. */
        public final List<double[]> modelLoads;
        /** [start, end, items] (s) of its batches, adjacent ones merged below the resolution. */
        public final List<double[]> batches;
        public final int batchCount;
        /** Items its batches produced (failed ones not counted). */
        public final long items;
        /** Seconds its batches ran (before merging). */
        public final double busySeconds;
        /** End of its last batch (s): lanes that end late are the stragglers. */
        public final double lastBatchEnd;
        /** Start of its first batch (s). */
        public final double firstBatchStart;
        /** Its first input's arrival (s); null where the ledger predates it. */
        public final Double firstInputAt;
        /** Phases of its model load(s) (s, summed over attempts): read + sha256, session, warm-up. */
        public final double modelReadSeconds;
        public final double sessionCreateSeconds;
        public final double warmUpSeconds;
        /** Its tokenizer load (s; 0 when it ran in another JVM). */
        public final double tokenizerLoadSeconds;
        /** The optimized-graph cache on its (last) load: off, hit or miss; null when unknown. */
        public final String graphCache;
        /** Its session was prepared by the driver while the embedded cluster started. */
        public final boolean sessionPrepared;

        /** The lane of ledger lane {@code l} on the axis from {@code t0} (epoch millis) to {@code end} (s). */
        private Lane(int subtask, RunLedger.Lane l, long t0, double end) {
            this.subtask = subtask;
            this.firstBatchStart = (l.firstBatchAt - t0) / 1000.0;
            this.firstInputAt = l.firstInputAt > 0 ? (l.firstInputAt - t0) / 1000.0 : null;
            List<Double> opened = new ArrayList<>();
            for (long at : l.openedAt) {
                opened.add((at - t0) / 1000.0);
            }
            this.openedAt = Collections.unmodifiableList(opened);
            List<double[]> loads = new ArrayList<>();
            for (long[] load : l.modelLoads) {
                double start = (load[0] - t0) / 1000.0;
                loads.add(new double[] {start, start + load[1] / 1000.0});
            }
            this.modelLoads = Collections.unmodifiableList(loads);
            this.modelReadSeconds = l.modelReadMs / 1000.0;
            this.sessionCreateSeconds = l.sessionCreateMs / 1000.0;
            this.warmUpSeconds = l.warmUpMs / 1000.0;
            this.tokenizerLoadSeconds = l.tokenizerLoadMs / 1000.0;
            this.sessionPrepared = l.sessionPrepared;
            this.graphCache = l.graphCache;
            this.batchCount = (int) l.batches;
            this.items = l.items - l.failedItems;
            this.busySeconds = l.busyMs / 1000.0;
            this.lastBatchEnd = (l.lastBatchEnd - t0) / 1000.0;
            List<double[]> merged = new ArrayList<>();
            for (double[] seg : l.segments) {
                double start = (seg[0] - t0) / 1000.0;
                double stop = (seg[1] - t0) / 1000.0;
                double[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
                if (last != null && start - last[1] < end * RESOLUTION) {
                    last[1] = Math.max(last[1], stop);
                    last[2] += seg[2];
                } else {
                    merged.add(new double[] {start, stop, seg[2]});
                }
            }
            this.batches = Collections.unmodifiableList(merged);
        }
    }

    /**
     * The time line of a run's ledger; {@code submittedAtMillis} (≤ 0 when unknown) and the
     * run's {@code wallSeconds} (≤ 0 when unknown) place time 0 and the end.
     */
    public static Timeline of(RunLedger ledger, long submittedAtMillis, double wallSeconds) {
        List<Map.Entry<Integer, RunLedger.Lane>> lanes = ledger.subtasks.entrySet().stream()
                .filter(e -> e.getValue().batches > 0).toList();
        if (lanes.isEmpty()) {
            return new Timeline(0, false, 0, 0, null, 0, List.of(), new ArrayList<>());
        }
        long firstOpened = lanes.stream().flatMap(e -> e.getValue().openedAt.stream())
                .mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
        long firstBatch = lanes.stream().mapToLong(e -> e.getValue().firstBatchAt).min().getAsLong();
        firstOpened = Math.min(firstOpened, firstBatch);
        long lastEnd = lanes.stream().mapToLong(e -> e.getValue().lastBatchEnd).max().getAsLong();
        boolean fromSubmission = submittedAtMillis > 0 && submittedAtMillis <= firstOpened;
        long start = fromSubmission ? submittedAtMillis : firstOpened;
        double lastBatch = (lastEnd - start) / 1000.0;
        double end = fromSubmission && wallSeconds > 0 ? Math.max(lastBatch, wallSeconds) : lastBatch;
        List<Lane> out = new ArrayList<>();
        for (Map.Entry<Integer, RunLedger.Lane> e : lanes) {
            out.add(new Lane(e.getKey(), e.getValue(), start, end));
        }
        Double firstInput = out.stream().map(l -> l.firstInputAt).filter(java.util.Objects::nonNull)
                .min(Double::compare).orElse(null);
        return new Timeline(start, fromSubmission, end, (firstBatch - start) / 1000.0, firstInput, lastBatch, out,
                throughput(ledger, start, start + (long) (end * 1000), THROUGHPUT_BINS));
    }

    /**
     * Items per second in {@code bins} equal bins over [from, to] (epoch millis): a segment's
     * items are spread over the bins it overlaps, so the curve shows the rate items were
     * produced at, not spikes at batch starts. Points are [bin end (s since from), items/s].
     */
    public static List<double[]> throughput(RunLedger ledger, long from, long to, int bins) {
        double width = Math.max(1, (to - from) / (double) bins);
        double[] items = new double[bins];
        for (RunLedger.Lane lane : ledger.subtasks.values()) {
            for (double[] seg : lane.segments) {
                double start = seg[0] - from;
                double end = Math.max(start + 1e-3, seg[1] - from);
                for (int bin = (int) Math.max(0, Math.min(bins - 1, start / width));
                        bin < bins && bin * width < end; bin++) {
                    double overlap = Math.min(end, (bin + 1) * width) - Math.max(start, bin * width);
                    items[bin] += seg[2] * Math.max(0, overlap) / (end - start);
                }
            }
        }
        List<double[]> out = new ArrayList<>(bins);
        for (int i = 0; i < bins; i++) {
            out.add(new double[] {(i + 1) * width / 1000.0, items[i] / (width / 1000.0)});
        }
        return out;
    }
}
