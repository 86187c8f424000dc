package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import org.apache.avro.generic.GenericData;

/**
 * Fills the search-index columns of an {@link EmbeddingParquetWriter} row: {@code doc_id} and
 * {@code content_sha256} always (the incremental-run cache key), chunk index/count and token
 * offsets only for chunked rows (null otherwise), and the settings fingerprint.
 */
final class IndexColumns {
    private IndexColumns() {}

    static void put(GenericData.Record rec, InferenceResult r) {
        ChunkRef c = r.chunk;
        if (c == null) {
            rec.put("doc_id", r.id);
            return;
        }
        rec.put("doc_id", c.docId);
        rec.put("content_sha256", c.contentSha256);
        rec.put("embed_settings", c.settings);
        if (c.chunked()) {
            rec.put("chunk_index", c.chunkIndex);
            rec.put("chunk_count", c.chunkCount);
            rec.put("token_start", c.tokenStart);
            rec.put("token_end", c.tokenEnd);
        }
    }
}
