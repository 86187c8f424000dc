package io.github.flinkinfer.runtime.postprocess;

/** Turns a row of logits into probabilities that sum to 1 (single-label classifiers). */
public final class Softmax extends VectorStep {

    @Override
    public void applyTo(float[] v) {
        double max = Double.NEGATIVE_INFINITY;
        for (float x : v) {
            max = Math.max(max, x);
        }
        double sum = 0;
        double[] e = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            e[i] = Math.exp(v[i] - max);
            sum += e[i];
        }
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (e[i] / sum);
        }
    }
}
