package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.operators.BatchMetrics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole run on one time axis, from submission to the last batch: per subtask its start-up,
 * model load(s) and batches (a Gantt strip, where stragglers and idle time show, which is what the
 * idle cost is made of), and the job's throughput over the same axis. Built from the committed
 * per-batch metrics rows; times are seconds since {@link #startMillis}.
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
    public List<Lane> subtasks = new ArrayList<>();
    /** [bin end (s), items/s] over [0, endSeconds]. */
    public List<double[]> throughput = new ArrayList<>();

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
     * The time line of {@code metrics}; {@code submittedAtMillis} (≤ 0 when unknown) and the
     * driver's {@code wallSeconds} (≤ 0 when unknown) place time 0 and the end.
     */
    public static Timeline of(List<BatchMetrics> metrics, long submittedAtMillis, double wallSeconds) {
        Timeline t = new Timeline();
        if (metrics.isEmpty()) {
            return t;
        }
        long firstOpened = metrics.stream().mapToLong(Timeline::openedAt).min().getAsLong();
        long lastEnd = metrics.stream().mapToLong(Timeline::endOf).max().getAsLong();
        t.fromSubmission = submittedAtMillis > 0 && submittedAtMillis <= firstOpened;
        t.startMillis = t.fromSubmission ? submittedAtMillis : firstOpened;
        double lastBatch = (lastEnd - t.startMillis) / 1000.0;
        double end = t.fromSubmission && wallSeconds > 0 ? Math.max(lastBatch, wallSeconds) : lastBatch;
        t.endSeconds = end;
        t.firstBatchSeconds = (metrics.stream().mapToLong(m -> m.startedAtMillis).min().getAsLong()
                - t.startMillis) / 1000.0;
        Map<Integer, List<BatchMetrics>> bySubtask = new TreeMap<>();
        for (BatchMetrics m : metrics) {
            bySubtask.computeIfAbsent(m.subtask, k -> new ArrayList<>()).add(m);
        }
        bySubtask.forEach((subtask, rows) -> t.subtasks.add(lane(subtask, rows, t.startMillis, end)));
        t.throughput = throughput(metrics, t.startMillis, t.startMillis + (long) (end * 1000), THROUGHPUT_BINS);
        return t;
    }

    private static Lane lane(int subtask, List<BatchMetrics> rows, long t0, double end) {
        Lane lane = new Lane();
        lane.subtask = subtask;
        rows.sort(Comparator.comparingLong(m -> m.startedAtMillis));
        lane.firstBatchStart = (rows.get(0).startedAtMillis - t0) / 1000.0;
        for (BatchMetrics m : rows) {
            double opened = (openedAt(m) - t0) / 1000.0;
            if (!lane.openedAt.contains(opened)) {
                lane.openedAt.add(opened);
            }
            long load = m.modelLoadMs;
            if (load > 0 || m.sessionPrepared) {
                lane.modelLoads.add(new double[] {opened, opened + load / 1000.0});
                lane.modelReadSeconds += m.modelReadMs / 1000.0;
                lane.sessionCreateSeconds += m.sessionCreateMs / 1000.0;
                lane.warmUpSeconds += m.warmUpMs / 1000.0;
                lane.tokenizerLoadSeconds += m.tokenizerLoadMs / 1000.0;
                lane.sessionPrepared |= m.sessionPrepared;
            }
            if (m.graphCache != null) {
                lane.graphCache = m.graphCache;
            }
            double start = (m.startedAtMillis - t0) / 1000.0;
            double stop = start + m.totalMs / 1000.0;
            double items = m.items - m.failedItems;
            lane.batchCount++;
            lane.items += (long) items;
            lane.busySeconds += stop - start;
            lane.lastBatchEnd = Math.max(lane.lastBatchEnd, stop);
            double[] last = lane.batches.isEmpty() ? null : lane.batches.get(lane.batches.size() - 1);
            if (last != null && start - last[1] < end * RESOLUTION) {
                last[1] = Math.max(last[1], stop);
                last[2] += items;
            } else {
                lane.batches.add(new double[] {start, stop, items});
            }
        }
        return lane;
    }

    /**
     * Items per second in {@code bins} equal bins over [from, to] (epoch millis): a batch's
     * items are spread over the bins its run overlaps, so the curve shows the rate items were
     * produced at, not spikes at batch starts. Points are [bin end (s since from), items/s].
     */
    public static List<double[]> throughput(List<BatchMetrics> metrics, long from, long to, int bins) {
        double width = Math.max(1, (to - from) / (double) bins);
        double[] items = new double[bins];
        for (BatchMetrics m : metrics) {
            double start = m.startedAtMillis - from;
            double end = start + Math.max(1e-3, m.totalMs);
            double done = m.items - m.failedItems;
            for (int bin = (int) Math.max(0, Math.min(bins - 1, start / width));
                    bin < bins && bin * width < end; bin++) {
                double overlap = Math.min(end, (bin + 1) * width) - Math.max(start, bin * width);
                items[bin] += done * Math.max(0, overlap) / (end - start);
            }
        }
        List<double[]> out = new ArrayList<>(bins);
        for (int i = 0; i < bins; i++) {
            out.add(new double[] {(i + 1) * width / 1000.0, items[i] / (width / 1000.0)});
        }
        return out;
    }

    private static long openedAt(BatchMetrics m) {
        long opened = m.subtaskOpenedAtMillis;
        return opened > 0 ? opened : m.startedAtMillis;
    }

    private static long endOf(BatchMetrics m) {
        return m.startedAtMillis + (long) m.totalMs;
    }
}
