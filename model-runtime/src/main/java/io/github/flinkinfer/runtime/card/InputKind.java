package io.github.flinkinfer.runtime.card;

/**
 * Whether a corpus holds passages (documents to be found) or queries (what users search with):
 * retrieval models such as e5 and bge were trained with a different prefix for each.
 */
public enum InputKind {
    /** Documents to index (e5: {@code passage: }; bge: no prefix). */
    PASSAGE,
    /** Search queries (e5: {@code query: }; bge: its query instruction). */
    QUERY
}
