package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;

/** The index-facing view of a row's {@link ChunkRef}: chunk columns are null when not chunked. */
final class IndexRows {
    private IndexRows() {}

    record Ref(String docId, Integer chunkIndex, Integer chunkCount, Integer tokenStart,
            Integer tokenEnd, String contentSha256, String settings) {}

    static Ref ref(InferenceResult r) {
        ChunkRef c = r.chunk;
        if (c == null) {
            return new Ref(r.id, null, null, null, null, null, null);
        }
        if (!c.chunked()) {
            return new Ref(c.docId, null, null, null, null, c.contentSha256, c.settings);
        }
        return new Ref(c.docId, c.chunkIndex, c.chunkCount, c.tokenStart, c.tokenEnd,
                c.contentSha256, c.settings);
    }
}
