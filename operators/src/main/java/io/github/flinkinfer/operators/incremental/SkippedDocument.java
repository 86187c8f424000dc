package io.github.flinkinfer.operators.incremental;

/**
 * A document an incremental run did not infer because an earlier run's rows for the same
 * content, model and settings were carried over; written to {@code skipped/}.
 */
public class SkippedDocument {
    public String id;
    public String source;
    /** Rows carried over (chunks and any pooled row). */
    public int rows;
    /** Tokens the model would have run for it (sum over its carried chunk rows). */
    public long tokens;
    public String contentSha256;

    public SkippedDocument() {}
}
