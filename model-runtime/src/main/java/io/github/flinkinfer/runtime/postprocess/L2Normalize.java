package io.github.flinkinfer.runtime.postprocess;

/** Scales each vector to unit length (a zero vector stays zero), so a dot product is the cosine. */
public final class L2Normalize extends VectorStep {

    @Override
    public void applyTo(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        float inv = (float) (1.0 / Math.max(Math.sqrt(sum), 1e-12));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
    }
}
