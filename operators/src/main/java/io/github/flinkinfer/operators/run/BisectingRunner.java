package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.ModelRuntime;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a batch so that one bad input cannot sink its batch-mates: when a run fails, the batch
 * is split in halves and each half retried, down to single items. Allocation failures (OOM) are
 * split the same way, since smaller batches need less memory. An output holding NaN or an
 * infinity is never a result: its item is run again alone, and fails ({@code non_finite_output})
 * if that output is not finite either, while its batch-mates succeed. Only items that fail alone
 * are reported as failed.
 */
public final class BisectingRunner {
    /**
     * Every reason this runner gives its failed items: out of memory even alone, or any other
     * failure of the model on the item alone.
     */
    public static final java.util.List<String> REASONS = java.util.List.of(
            ErrorReason.OUT_OF_MEMORY.code(), ErrorReason.INFERENCE_FAILED.code(),
            ErrorReason.NON_FINITE_OUTPUT.code());

    private final ModelRuntime runtime;

    public BisectingRunner(ModelRuntime runtime) {
        this.runtime = runtime;
    }

    /** What happened to one batch. */
    public static final class Outcome {
        public final List<TokenizedDocument> succeeded = new ArrayList<>();
        public final List<float[]> vectors = new ArrayList<>();
        public final List<ErrorRecord> failed = new ArrayList<>();
        /** The input of each {@link #failed} record, in the same order. */
        public final List<TokenizedDocument> failedInputs = new ArrayList<>();
        int runs;
        long tensorNanos;
        long runNanos;
        long postNanos;

        public int retries() {
            return Math.max(0, runs - 1);
        }
    }

    public Outcome run(List<TokenizedDocument> items) {
        Outcome outcome = new Outcome();
        run(items, 1, outcome);
        return outcome;
    }

    private void run(List<TokenizedDocument> items, int attempt, Outcome outcome) {
        List<int[]> ids = new ArrayList<>(items.size());
        for (TokenizedDocument d : items) {
            ids.add(d.tokenIds);
        }
        outcome.runs++;
        try {
            Inference inference = runtime.infer(ids);
            outcome.tensorNanos += inference.tensorNanos();
            outcome.runNanos += inference.runNanos();
            outcome.postNanos += inference.postNanos();
            float[][] vectors = inference.vectors();
            for (int i = 0; i < items.size(); i++) {
                TokenizedDocument d = items.get(i);
                int bad = firstNonFinite(vectors[i]);
                if (bad < 0) {
                    outcome.succeeded.add(d);
                    outcome.vectors.add(vectors[i]);
                } else if (items.size() > 1) {
                    run(List.of(d), attempt + 1, outcome); // alone: its batch-mates may have caused it
                } else {
                    fail(outcome, d, ErrorReason.NON_FINITE_OUTPUT, d.tokenIds.length
                            + " tokens: output[" + bad + "] = " + vectors[i][bad], attempt);
                }
            }
        } catch (InferenceException e) {
            if (items.size() == 1) {
                TokenizedDocument d = items.get(0);
                fail(outcome, d, e.outOfMemory() ? ErrorReason.OUT_OF_MEMORY : ErrorReason.INFERENCE_FAILED,
                        d.tokenIds.length + " tokens: " + truncate(e.getMessage()), attempt);
                return;
            }
            int mid = items.size() / 2;
            run(items.subList(0, mid), attempt + 1, outcome);
            run(items.subList(mid, items.size()), attempt + 1, outcome);
        }
    }

    private static void fail(Outcome outcome, TokenizedDocument d, ErrorReason reason, String message, int attempt) {
        outcome.failed.add(ErrorRecord.of(d.id, d.source, reason, message, attempt).withInput(d.chunk));
        outcome.failedInputs.add(d);
    }

    /** Index of the first NaN or infinite value, or -1 when every value is finite. */
    static int firstNonFinite(float[] v) {
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) {
                return i;
            }
        }
        return -1;
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 300 ? s : s.substring(0, 300) + "…";
    }
}
