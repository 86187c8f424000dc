package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.runtime.card.Classification;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Chunked moderation, keyed by document id, so content past the model's max length is not lost
 * to truncation. Once all of a document's windows have arrived it emits one verdict with the
 * document's id and {@code chunkCount}, by {@link Policy}:
 *
 * <ul>
 *   <li>{@code WORST}: the deciding window's verdict (label, scores, flagged labels) and its
 *       index and token range; a document is flagged iff one of its windows is ("any part
 *       offends": highest recall);
 *   <li>{@code MEAN}: the verdict on the mean of the windows' scores ({@code deciding_chunk} -1,
 *       the token range the whole document); one spammy footer does not flag a long mail.
 * </ul>
 *
 * <p>Worst = highest severity: with thresholds, {@code max(score[label] / threshold[label])}
 * over the thresholded labels (≥ 1 exactly when that window is flagged); without thresholds, the
 * top score. Ties go to the earlier window, so the verdict does not depend on arrival order. A
 * document with a failed window gets no verdict: it is one {@code window_failed} error row
 * ({@link io.github.flinkinfer.operators.pool.DocumentErrorsFunction}), as for doc-level pooling
 * of embeddings.
 */
public class DocVerdictFunction extends KeyedProcessFunction<String, ModerationResult, ModerationResult> {
    private static final long serialVersionUID = 1L;

    /** How a document's windows make one verdict (see class doc). */
    public enum Policy {
        WORST, MEAN
    }

    private final Classification classification;
    private final Policy policy;
    private transient ValueState<Windows> windows;

    /** One document's windows so far: the worst one, how many, their score sum, the last token. */
    public static class Windows {
        public ModerationResult worst;
        public int seen;
        public float[] scoreSum;
        public int lastToken;

        public Windows() {}
    }

    public DocVerdictFunction(Classification classification, Policy policy) {
        this.classification = classification;
        this.policy = policy;
    }

    @Override
    public void open(OpenContext openContext) {
        windows = getRuntimeContext().getState(
                new ValueStateDescriptor<>("document-windows", TypeInformation.of(Windows.class)));
    }

    @Override
    public void processElement(ModerationResult window, Context ctx, Collector<ModerationResult> out)
            throws Exception {
        if (window.chunkCount <= 0) {
            out.collect(window); // not a window: nothing to combine
            return;
        }
        Windows d = windows.value();
        if (d == null) {
            d = new Windows();
            d.scoreSum = new float[window.scores.length];
        }
        if (d.worst == null || worse(window, d.worst)) {
            d.worst = window;
        }
        d.seen++;
        for (int i = 0; i < d.scoreSum.length; i++) {
            d.scoreSum[i] += window.scores[i];
        }
        d.lastToken = Math.max(d.lastToken, window.decidingTokenEnd);
        if (d.seen < window.chunkCount) {
            windows.update(d);
            return;
        }
        windows.clear();
        ModerationResult w = d.worst;
        w.id = w.docId;
        w.tokenCount = d.lastToken; // the document's content tokens: the last window's end
        if (policy == Policy.MEAN) {
            float[] mean = new float[d.scoreSum.length];
            for (int i = 0; i < mean.length; i++) {
                mean[i] = d.scoreSum[i] / d.seen;
            }
            Classification.Decision decision = classification.decide(mean);
            w.scores = mean;
            w.label = decision.label();
            w.score = decision.score();
            w.flagged = decision.flagged();
            w.flaggedLabels = decision.flaggedLabels().toArray(String[]::new);
            w.decidingChunk = -1;
            w.decidingTokenStart = 0;
            w.decidingTokenEnd = d.lastToken;
        }
        out.collect(w);
    }

    /** Whether {@code a} decides over {@code b}: higher severity, or equal and an earlier window. */
    boolean worse(ModerationResult a, ModerationResult b) {
        int c = Double.compare(severity(a), severity(b));
        return c > 0 || (c == 0 && a.decidingChunk < b.decidingChunk);
    }

    double severity(ModerationResult m) {
        if (classification.thresholds.isEmpty()) {
            return m.score;
        }
        double s = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < m.labels.length; i++) {
            Float t = classification.thresholds.get(m.labels[i]);
            if (t != null && t > 0) {
                s = Math.max(s, m.scores[i] / t);
            }
        }
        return s;
    }
}
