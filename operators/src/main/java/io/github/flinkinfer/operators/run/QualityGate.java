package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.metrics.QualitySample;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.io.Serializable;
import java.util.List;

/**
 * Runs a uniform sample of the items each subtask produced once more, alone (batch of one), through a
 * reference model (the fp32 model by default) and measures how far the run's outputs moved: min
 * and mean cosine for embeddings, label agreement for classifiers. Catches optimizations that
 * change outputs (int8's batch-dependent activations, fp16). Results travel in the batch
 * metrics records; the driver fails the run below the configured floor.
 *
 * @param reference opens the reference model on the TaskManager
 * @param samples items checked in total, split evenly over the inference subtasks (each keeps a
 *     uniform sample of its successful items, {@link QualitySample})
 * @param seed the seed of the sample's priorities; recorded in every metrics row
 */
public record QualityGate(ModelRuntimeFactory reference, int samples, long seed) implements Serializable {
    /** The seed when none is given: reruns of a corpus check the same items. */
    public static final long DEFAULT_SEED = 20261201L;

    public QualityGate(ModelRuntimeFactory reference, int samples) {
        this(reference, samples, DEFAULT_SEED);
    }

    /**
     * Runs one item alone through the reference and compares its output with {@code output}: cosine,
     * or 1/0 label agreement. Also how {@code plan --workload} measures a variant's quality.
     */
    public static double compare(ModelRuntime reference, int[] tokenIds, float[] output) {
        float[] ref = reference.infer(List.of(tokenIds)).vectors()[0];
        if (reference.card().task == ModelTask.CLASSIFICATION) {
            return argmax(ref) == argmax(output) ? 1.0 : 0.0;
        }
        return io.github.flinkinfer.runtime.Vectors.cosine(ref, output);
    }

    private static int argmax(float[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++) {
            if (v[i] > v[best]) {
                best = i;
            }
        }
        return best;
    }
}
