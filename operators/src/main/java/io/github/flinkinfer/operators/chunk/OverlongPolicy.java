package io.github.flinkinfer.operators.chunk;

/** What to do with an input longer than the model's max sequence length. */
public enum OverlongPolicy {
    /** Keep the first tokens; the output says {@code truncated} with the original count. */
    TRUNCATE,
    /** Send the input to the errors output with reason {@code too_long}. */
    REJECT
}
