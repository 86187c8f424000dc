package io.github.flinkinfer.runtime;

/**
 * One batch's outputs and where its time went.
 *
 * @param vectors one vector per input, in input order
 * @param tensorNanos building the padded input tensors
 * @param runNanos the engine's run call
 * @param postNanos the post-processing steps (pooling, normalization, activation)
 */
public record Inference(float[][] vectors, long tensorNanos, long runNanos, long postNanos) {}
