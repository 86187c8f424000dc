package io.github.flinkinfer.runtime.postprocess;

import java.nio.FloatBuffer;

/**
 * Averages each input's real token vectors (padding excluded): sentence-transformers' default.
 *
 * <p>Each token's vector is copied in one bulk read into a small array (it stays in the L1 cache)
 * and added from there: a loop the JIT vectorizes, where one {@code FloatBuffer.get(i)} per float
 * over ORT's direct output did not. The same float additions in the same order, so the same bits;
 * at 64 rows × 80 tokens × 384 over direct memory about 3 µs per item against 10-14
 * (docs/benchmarks/host-ceiling-2026-12-02c.md).
 */
public final class MeanPooling extends PoolingStep {

    @Override
    protected void pool(ModelOutput.TokenVectors tokens, int row, float[] v) {
        FloatBuffer states = tokens.states();
        int hidden = tokens.hidden();
        int len = tokens.lengths()[row];
        int rowStart = tokens.rowStart(row);
        float[] token = new float[hidden];
        for (int t = 0; t < len; t++) {
            states.get(rowStart + t * hidden, token, 0, hidden);
            for (int h = 0; h < hidden; h++) {
                v[h] += token[h];
            }
        }
        float inv = 1f / Math.max(1, len);
        for (int h = 0; h < hidden; h++) {
            v[h] *= inv;
        }
    }
}
