package io.github.flinkinfer.operators;

import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.errors.ErrorRecord;

/**
 * What became of one token window after inference, without its vector: the small record that
 * {@code pool.DocumentErrorsFunction} collects per document, so a document with a failed window is
 * counted once.
 */
public class WindowOutcome {
    /** The window's ref: document, content hash, settings, index and window count. */
    public ChunkRef chunk;
    /** The document's position in the corpus. */
    public String source;
    /** Null when the window succeeded. */
    public ErrorRecord error;

    public WindowOutcome() {}

    public static WindowOutcome succeeded(InferenceResult window) {
        WindowOutcome o = new WindowOutcome();
        o.chunk = window.chunk;
        o.source = window.source;
        return o;
    }

    public static WindowOutcome failed(ErrorRecord error, ChunkRef window) {
        WindowOutcome o = new WindowOutcome();
        o.chunk = window;
        o.source = error.source;
        o.error = error;
        return o;
    }

    public String docId() {
        return chunk.docId;
    }
}
