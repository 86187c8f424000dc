package io.github.flinkinfer.runtime.postprocess;

import java.nio.FloatBuffer;

/** Averages each input's real token vectors (padding excluded): sentence-transformers' default. */
public final class MeanPooling extends PoolingStep {

    @Override
    protected void pool(ModelOutput.TokenVectors tokens, int row, float[] v) {
        FloatBuffer states = tokens.states();
        int hidden = tokens.hidden();
        int len = tokens.lengths()[row];
        int rowStart = tokens.rowStart(row);
        for (int t = 0; t < len; t++) {
            int off = rowStart + t * hidden;
            for (int h = 0; h < hidden; h++) {
                v[h] += states.get(off + h);
            }
        }
        float inv = 1f / Math.max(1, len);
        for (int h = 0; h < hidden; h++) {
            v[h] *= inv;
        }
    }
}
