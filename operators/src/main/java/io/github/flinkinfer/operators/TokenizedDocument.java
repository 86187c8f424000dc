package io.github.flinkinfer.operators;

/** A document after tokenization; the text itself is dropped here to keep batches small. */
public class TokenizedDocument {
    public String id;
    public String source;
    public int[] tokenIds;
    public int originalTokenCount;
    /** Nanoseconds spent tokenizing this document. */
    public long tokenizeNanos;
    /** Document, content hash and token window this input comes from. */
    public io.github.flinkinfer.operators.chunk.ChunkRef chunk;

    public TokenizedDocument() {}

    public TokenizedDocument(
            String id, String source, int[] tokenIds, int originalTokenCount, long tokenizeNanos) {
        this.id = id;
        this.source = source;
        this.tokenIds = tokenIds;
        this.originalTokenCount = originalTokenCount;
        this.tokenizeNanos = tokenizeNanos;
    }

    public int tokenCount() {
        return tokenIds.length;
    }

    public boolean truncated() {
        return originalTokenCount > tokenIds.length;
    }

    @Override
    public String toString() {
        return "TokenizedDocument{id=" + id + ", tokens=" + tokenIds.length + "}";
    }
}
