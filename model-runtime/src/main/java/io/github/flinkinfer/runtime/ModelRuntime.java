package io.github.flinkinfer.runtime;

import java.util.List;

/**
 * The seam between the pipeline and an inference engine: one call runs one batch of tokenized
 * inputs and returns one vector per input (an embedding, or class scores), in input order.
 * Implementations pad the batch to its longest input. Tests inject faults by wrapping it.
 */
public interface ModelRuntime extends AutoCloseable {

    /** Runs the batch. Throws {@link InferenceException} when it cannot. */
    Inference infer(List<int[]> batch);

    ModelCard card();

    /** The device the session really runs on (after any {@code auto} fallback). */
    Device device();

    /** Where this runtime's load time went (zeros when it reused a shared session). */
    default LoadTimes loadTimes() {
        return LoadTimes.NONE;
    }

    @Override
    void close();
}
