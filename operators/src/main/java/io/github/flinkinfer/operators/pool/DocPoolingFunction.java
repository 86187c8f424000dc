package io.github.flinkinfer.operators.pool;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by document id after inference: sums a document's chunk embeddings and, once all of its
 * chunks have arrived, emits one doc-level row (id = the document id, {@code chunkIndex} -1)
 * holding their mean, re-normalized to unit length. A document with a failed chunk gets no
 * pooled row: it is one {@code window_failed} error row ({@link DocumentErrorsFunction}).
 */
public class DocPoolingFunction extends KeyedProcessFunction<String, InferenceResult, InferenceResult> {
    private transient ValueState<Pool> pool;

    /** Running sum over one document's chunks. */
    public static class Pool {
        public float[] sum;
        public int seen;
        public int contentTokens;

        public Pool() {}
    }

    @Override
    public void open(OpenContext openContext) {
        pool = getRuntimeContext().getState(
                new ValueStateDescriptor<>("doc-pool", TypeInformation.of(Pool.class)));
    }

    @Override
    public void processElement(InferenceResult chunk, Context ctx, Collector<InferenceResult> out)
            throws Exception {
        if (chunk.chunk == null || !chunk.chunk.isChunk()) {
            return;
        }
        Pool p = pool.value();
        if (p == null) {
            p = new Pool();
            p.sum = new float[chunk.vector.length];
        }
        for (int i = 0; i < p.sum.length; i++) {
            p.sum[i] += chunk.vector[i];
        }
        p.seen++;
        p.contentTokens = Math.max(p.contentTokens, chunk.chunk.tokenEnd);
        if (p.seen < chunk.chunk.chunkCount) {
            pool.update(p);
            return;
        }
        pool.clear();
        out.collect(pooled(chunk, p));
    }

    static InferenceResult pooled(InferenceResult anyChunk, Pool p) {
        ChunkRef c = anyChunk.chunk;
        InferenceResult r = new InferenceResult();
        r.id = c.docId;
        r.source = anyChunk.source;
        r.vector = normalized(p.sum, p.seen);
        r.tokenCount = p.contentTokens;
        r.originalTokenCount = p.contentTokens;
        r.model = anyChunk.model;
        r.modelVersion = anyChunk.modelVersion;
        r.chunk = ChunkRef.document(c.docId, c.contentSha256, c.settings);
        r.chunk.chunkCount = c.chunkCount;
        r.chunk.tokenEnd = p.contentTokens;
        return r;
    }

    /** The mean of the summed vectors, scaled to unit length (the mean itself when it is 0). */
    public static float[] normalized(float[] sum, int n) {
        float[] v = new float[sum.length];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = sum[i] / n;
            norm += (double) v[i] * v[i];
        }
        if (norm > 0) {
            float scale = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= scale;
            }
        }
        return v;
    }
}
