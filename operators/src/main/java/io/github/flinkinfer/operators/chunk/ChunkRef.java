package io.github.flinkinfer.operators.chunk;

/**
 * Which document (and which version of its content) a row came from, and which token window of
 * it. A Flink POJO carried from tokenization to the output rows.
 */
public class ChunkRef {
    /** Separates the document id from the chunk index in a chunk's output id. */
    public static final char SEPARATOR = '#';

    /** The input document's id (the row's own id is {@code <docId>#<chunkIndex>} for chunks). */
    public String docId;
    /** sha256 (hex) of the document's text as UTF-8: the incremental-run cache key. */
    public String contentSha256;
    /**
     * The document's text length in characters (-1 unknown: a row carried over from an earlier
     * run): with {@link #contentSha256}, what an error row after tokenization names the input by.
     */
    public int contentLength = -1;
    /** {@link Chunking#fingerprint}: the settings the row was computed with. */
    public String settings;
    /** 0-based window index; -1 for a whole (unchunked) document or a doc-level pooled row. */
    public int chunkIndex = -1;
    /** Windows of the document; 0 when chunking is off. */
    public int chunkCount;
    /** Window start in the document's content tokens (special tokens excluded), inclusive. */
    public int tokenStart;
    /** Window end in the document's content tokens, exclusive. */
    public int tokenEnd;

    public ChunkRef() {}

    public static ChunkRef document(String docId, String contentSha256, String settings) {
        ChunkRef c = new ChunkRef();
        c.docId = docId;
        c.contentSha256 = contentSha256;
        c.settings = settings;
        return c;
    }

    /** The ref of a document whose text is {@code text}: its hash and length, computed here. */
    public static ChunkRef of(String docId, String text, String settings) {
        ChunkRef c = document(docId, ContentHash.sha256(text), settings);
        c.contentLength = text.length();
        return c;
    }

    public ChunkRef window(TokenWindows.Window w, int count) {
        ChunkRef c = document(docId, contentSha256, settings);
        c.contentLength = contentLength;
        c.chunkIndex = w.index();
        c.chunkCount = count;
        c.tokenStart = w.start();
        c.tokenEnd = w.end();
        return c;
    }

    public boolean chunked() {
        return chunkCount > 0;
    }

    /** A chunk row ({@code chunkIndex >= 0}), as opposed to a whole or pooled document row. */
    public boolean isChunk() {
        return chunkCount > 0 && chunkIndex >= 0;
    }

    public static String chunkId(String docId, int index) {
        return docId + SEPARATOR + index;
    }

    @Override
    public String toString() {
        return "ChunkRef{doc=" + docId + ", chunk=" + chunkIndex + "/" + chunkCount + ", tokens=["
                + tokenStart + "," + tokenEnd + ")}";
    }
}
