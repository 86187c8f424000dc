package io.github.flinkinfer.operators.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An opt-in, in-JVM record of ML_PREDICT's batches, for the benchmark on the embedded cluster:
 * when the models were ready and each batch's rows, tokens and time. Off unless {@link #start()}
 * was called; on a real cluster the TaskManagers are other JVMs and nothing is recorded here.
 *
 * <pre>{@code
 * PredictRecorder.start();
 * SqlEmbedding.run(...);
 * PredictRecorder.Recording r = PredictRecorder.stop(); // r.windowMillis(): ready -> last batch
 * }</pre>
 */
public final class PredictRecorder {
    /** One batch: the ML_PREDICT subtask, rows, real and padded tokens, start (epoch ms), duration. */
    public record BatchRecord(int subtask, int rows, long realTokens, long paddedTokens,
            long startedAtMillis, double millis) {}

    /** What was recorded: the first subtask's model-ready time and every batch. */
    public record Recording(long firstReadyMillis, List<BatchRecord> batches) {
        /** Rows per ML_PREDICT subtask index (subtasks that got no rows are absent). */
        public SortedMap<Integer, Integer> rowsBySubtask() {
            SortedMap<Integer, Integer> out = new TreeMap<>();
            for (BatchRecord b : batches) {
                out.merge(b.subtask, b.rows, Integer::sum);
            }
            return out;
        }

        /** First model ready to the end of the last batch; 0 when nothing ran. */
        public long windowMillis() {
            long lastEnd = 0;
            for (BatchRecord b : batches) {
                lastEnd = Math.max(lastEnd, b.startedAtMillis + (long) Math.ceil(b.millis));
            }
            return batches.isEmpty() || firstReadyMillis == Long.MAX_VALUE
                    ? 0 : lastEnd - firstReadyMillis;
        }
    }

    private static List<BatchRecord> batches; // null: off
    private static long firstReady = Long.MAX_VALUE;

    private PredictRecorder() {}

    /** Starts recording (clears anything recorded before). */
    public static synchronized void start() {
        batches = new ArrayList<>();
        firstReady = Long.MAX_VALUE;
    }

    /** Stops recording and returns what was recorded. */
    public static synchronized Recording stop() {
        Recording r = new Recording(firstReady, batches == null ? List.of() : List.copyOf(batches));
        batches = null;
        return r;
    }

    static synchronized void modelReady(long epochMillis) {
        if (batches != null) {
            firstReady = Math.min(firstReady, epochMillis);
        }
    }

    static synchronized void batch(BatchRecord b) {
        if (batches != null) {
            batches.add(b);
        }
    }
}
