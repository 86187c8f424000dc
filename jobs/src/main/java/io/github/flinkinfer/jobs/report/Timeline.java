package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.operators.ledger.RunLedger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole run on one time axis, from submission to the last batch: per subtask its start-up,
 * model load(s) and batches (a Gantt strip, where stragglers and idle time show, which is what the
 * idle cost is made of), and the job's throughput over the same axis. Built from the run's
 * ledger (a bounded list of batch segments per subtask); times are seconds since {@link #startMillis}.
 */
public final class Timeline {
    /** Segments closer than this share of the axis are merged, so a lane stays small. */
    static final double RESOLUTION = 1.0 / 2000;
    static final int THROUGHPUT_BINS = 60;

    /** Epoch millis of time 0: the job's submission when known, else the first subtask opening. */
    public long startMillis;
    /** True when {@link #startMillis} is the driver's submission time. */
    public boolean fromSubmission;
    /** Seconds from time 0 to the end of the run (the later of the driver's wall and the last batch). */
    public double endSeconds;
    /** Seconds from time 0 to the start of the first batch: the cold start. */
    public double firstBatchSeconds;
    /**
     * Seconds from time 0 to the end of the last batch; from there to {@link #endSeconds} no batch
     * runs (the dedupe after inference, the writers after it, the commit): a device's idle tail.
     */
    public double lastBatchSeconds;
    public List<Lane> subtasks = new ArrayList<>();
    /** [bin end (s), items/s] over [0, endSeconds]. */
    public List<double[]> throughput = new ArrayList<>();

    /** Seconds from the end of the last batch to the job's end: the tail, where no batch runs. */
    public double tailSeconds() {
        return endSeconds - lastBatchSeconds;
    }

    /** One subtask's time line. */
    public static final class Lane {
        public int subtask;
        /** Seconds at which the subtask opened (its model load started); one per attempt. */
        public List<Double> openedAt = new ArrayList<>();
        /** [start, end] (s) of each model load. */
        public List<double[]> modelLoads = new ArrayList<>();
        /** [start, end, items] (s) of its batches, adjacent ones merged below the resolution. */
        public List<double[]> batches = new ArrayList<>();
        public int batchCount;
        /** Items its batches produced (failed ones not counted). */
        public long items;
        /** Seconds its batches ran (before merging). */
        public double busySeconds;
        /** End of its last batch (s): lanes that end late are the stragglers. */
        public double lastBatchEnd;
        /** Start of its first batch (s). */
        public double firstBatchStart;
        /** Phases of its model load(s) (s, summed over attempts): read + sha256, session, warm-up. */
        public double modelReadSeconds;
        public double sessionCreateSeconds;
        public double warmUpSeconds;
        /** Its tokenizer load (s; 0 when it ran in another JVM). */
        public double tokenizerLoadSeconds;
        /** The optimized-graph cache on its (last) load: off, hit or miss; null when unknown. */
        public String graphCache;
        /** Its session was prepared by the driver while the embedded cluster started. */
        public boolean sessionPrepared;
    }

    /**
     * The time line of a run's ledger; {@code submittedAtMillis} (≤ 0 when unknown) and the
     * run's {@code wallSeconds} (≤ 0 when unknown) place time 0 and the end.
     */
    public static Timeline of(RunLedger ledger, long submittedAtMillis, double wallSeconds) {
        Timeline t = new Timeline();
        List<Map.Entry<Integer, RunLedger.Lane>> lanes = ledger.subtasks.entrySet().stream()
                .filter(e -> e.getValue().batches > 0).toList();
        if (lanes.isEmpty()) {
            return t;
        }
        long firstOpened = lanes.stream().flatMap(e -> e.getValue().openedAt.stream())
                .mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
        long firstBatch = lanes.stream().mapToLong(e -> e.getValue().firstBatchAt).min().getAsLong();
        firstOpened = Math.min(firstOpened, firstBatch);
        long lastEnd = lanes.stream().mapToLong(e -> e.getValue().lastBatchEnd).max().getAsLong();
        t.fromSubmission = submittedAtMillis > 0 && submittedAtMillis <= firstOpened;
        t.startMillis = t.fromSubmission ? submittedAtMillis : firstOpened;
        double lastBatch = (lastEnd - t.startMillis) / 1000.0;
        double end = t.fromSubmission && wallSeconds > 0 ? Math.max(lastBatch, wallSeconds) : lastBatch;
        t.endSeconds = end;
        t.firstBatchSeconds = (firstBatch - t.startMillis) / 1000.0;
        t.lastBatchSeconds = lastBatch;
        for (Map.Entry<Integer, RunLedger.Lane> e : lanes) {
            t.subtasks.add(lane(e.getKey(), e.getValue(), t.startMillis, end));
        }
        t.throughput = throughput(ledger, t.startMillis, t.startMillis + (long) (end * 1000), THROUGHPUT_BINS);
        return t;
    }

    private static Lane lane(int subtask, RunLedger.Lane l, long t0, double end) {
        Lane lane = new Lane();
        lane.subtask = subtask;
        lane.firstBatchStart = (l.firstBatchAt - t0) / 1000.0;
        for (long opened : l.openedAt) {
            lane.openedAt.add((opened - t0) / 1000.0);
        }
        for (long[] load : l.modelLoads) {
            double opened = (load[0] - t0) / 1000.0;
            lane.modelLoads.add(new double[] {opened, opened + load[1] / 1000.0});
        }
        lane.modelReadSeconds = l.modelReadMs / 1000.0;
        lane.sessionCreateSeconds = l.sessionCreateMs / 1000.0;
        lane.warmUpSeconds = l.warmUpMs / 1000.0;
        lane.tokenizerLoadSeconds = l.tokenizerLoadMs / 1000.0;
        lane.sessionPrepared = l.sessionPrepared;
        lane.graphCache = l.graphCache;
        lane.batchCount = (int) l.batches;
        lane.items = l.items - l.failedItems;
        lane.busySeconds = l.busyMs / 1000.0;
        lane.lastBatchEnd = (l.lastBatchEnd - t0) / 1000.0;
        for (double[] seg : l.segments) {
            double start = (seg[0] - t0) / 1000.0;
            double stop = (seg[1] - t0) / 1000.0;
            double[] last = lane.batches.isEmpty() ? null : lane.batches.get(lane.batches.size() - 1);
            if (last != null && start - last[1] < end * RESOLUTION) {
                last[1] = Math.max(last[1], stop);
                last[2] += seg[2];
            } else {
                lane.batches.add(new double[] {start, stop, seg[2]});
            }
        }
        return lane;
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
