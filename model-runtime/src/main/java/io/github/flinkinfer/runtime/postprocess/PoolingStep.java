package io.github.flinkinfer.runtime.postprocess;

/**
 * A {@link PostProcessor} that turns each input's token vectors into one vector. Output a graph
 * already pooled itself (e.g. {@code sentence_embedding}, or a classifier's logits) passes
 * through unchanged, so a card's pooling applies to whichever output it names.
 */
public abstract class PoolingStep implements PostProcessor {

    /** Pools row {@code row} of {@code tokens} into {@code into} (zeros, {@code hidden} long). */
    protected abstract void pool(ModelOutput.TokenVectors tokens, int row, float[] into);

    @Override
    public final ModelOutput apply(ModelOutput output) {
        if (!(output instanceof ModelOutput.TokenVectors tokens)) {
            return output;
        }
        float[][] pooled = new float[tokens.rows()][tokens.hidden()];
        for (int r = 0; r < pooled.length; r++) {
            pool(tokens, r, pooled[r]);
        }
        return new ModelOutput.Vectors(pooled);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
