package io.github.flinkinfer.runtime.postprocess;

/** Turns each logit into an independent probability (multi-label classifiers). */
public final class Sigmoid extends VectorStep {

    @Override
    public void applyTo(float[] v) {
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (1.0 / (1.0 + Math.exp(-v[i])));
        }
    }
}
