package io.github.flinkinfer.operators.chunk;

import java.io.Serializable;

/**
 * How documents are cut into token windows: {@code size} content tokens per window (special
 * tokens such as {@code [CLS]}/{@code [SEP]} are added around each window and not counted),
 * consecutive windows sharing {@code overlap} tokens, and whether a doc-level row pools them.
 * {@link #OFF} keeps one row per document (truncate/reject as before).
 */
public record Chunking(int size, int overlap, Pooling pooling) implements Serializable {
    /** Doc-level row over a document's chunks. */
    public enum Pooling {
        NONE,
        /** The mean of the chunk embeddings, re-normalized to unit length. */
        MEAN
    }

    public static final Chunking OFF = new Chunking(0, 0, Pooling.NONE);

    public Chunking {
        if (size < 0) {
            throw new IllegalArgumentException("--chunk-size must be >= 0");
        }
        if (size == 0 && (overlap != 0 || pooling != Pooling.NONE)) {
            throw new IllegalArgumentException("--chunk-overlap and --doc-pooling need --chunk-size");
        }
        if (size > 0 && (overlap < 0 || overlap >= size)) {
            throw new IllegalArgumentException(
                    "--chunk-overlap must be >= 0 and < --chunk-size (" + size + "), not " + overlap);
        }
    }

    public boolean enabled() {
        return size > 0;
    }

    /** Fails unless a window plus {@code specialTokens} fits the model's max length. */
    public void validateFor(int maxLength, int specialTokens) {
        if (enabled() && size + specialTokens > maxLength) {
            throw new IllegalArgumentException("--chunk-size " + size + " + " + specialTokens
                    + " special tokens exceeds the max length " + maxLength);
        }
    }

    /**
     * Everything besides the model and the text that decides a row's vector; an incremental run
     * reuses a previous row only when this matches.
     */
    public String fingerprint(int maxLength, OverlongPolicy overlong) {
        return enabled()
                ? "max_length=" + maxLength + ";chunk=" + size + "/" + overlap + ";pooling="
                        + pooling.name().toLowerCase(java.util.Locale.ROOT)
                : "max_length=" + maxLength + ";overlong=" + overlong.name().toLowerCase(java.util.Locale.ROOT);
    }
}
