package io.github.flinkinfer.operators.kinds;

import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.Serializable;
import java.util.List;

/**
 * The per-row half of a task kind, below both front doors: the DataStream job's {@code TaskKind}
 * (its pre-process tokenizes through {@link #encode}) and SQL's {@code ML_PREDICT} (its tokenization
 * and its {@code OUTPUT} columns come from here). One implementation per model task, registered by
 * one line in {@code META-INF/services/io.github.flinkinfer.operators.kinds.RowKind}.
 *
 * <pre>{@code
 * RowKind rows = RowKinds.of(card.task);
 * RowKind.Encoded in = rows.encode(tokenizer, text, OverlongPolicy.REJECT);
 * Object[] values = rows.values(vector, card.classification); // in rows.columns() order
 * }</pre>
 */
public interface RowKind extends Serializable {
    /** The model task whose rows this reads. */
    ModelTask task();

    /** The columns of {@link #values}, in order: names and types as SQL's {@code OUTPUT} declares them. */
    List<ResultColumn> columns();

    /**
     * One raw model output row (a vector, or a classifier's scores) as this kind's values, in
     * {@link #columns()} order, as plain Java values ({@code float[]}, {@code String}, {@code
     * Float}, {@code Boolean}, {@code Integer}).
     *
     * @param classification the card's labels and thresholds; null for a model without them
     */
    Object[] values(float[] output, Classification classification);

    /**
     * Pre-process one text: the card's tokenizer (its input prefix included), then the over-long
     * policy. By default every kind's rule; a kind with other inputs overrides it.
     */
    default Encoded encode(TextTokenizer tokenizer, String text, OverlongPolicy overlong) {
        TokenizedText tokens;
        try {
            tokens = tokenizer.encode(text);
        } catch (RuntimeException e) {
            return Encoded.failed(ErrorReason.TOKENIZER_FAILED, e.getClass().getSimpleName(), -1);
        }
        if (tokens.truncated() && overlong == OverlongPolicy.REJECT) {
            return Encoded.failed(ErrorReason.TOO_LONG, "at least " + tokens.originalTokenCount()
                    + " tokens > max " + tokenizer.maxLength(), tokens.originalTokenCount());
        }
        return new Encoded(tokens, null, null, tokens.originalTokenCount());
    }

    /**
     * A text's model input, or why there is none: {@code reason} and {@code detail} for the error
     * row, {@code tokenCount} the text's length in tokens when known (else -1).
     */
    record Encoded(TokenizedText tokens, ErrorReason reason, String detail, int tokenCount) {
        static Encoded failed(ErrorReason reason, String detail, int tokenCount) {
            return new Encoded(null, reason, detail, tokenCount);
        }

        public boolean failed() {
            return reason != null;
        }
    }
}
