/**
 * Runs ONNX models over batches of tokenized text: model cards, integrity checks, tokenization
 * (single texts and text pairs), ONNX Runtime sessions, post-processing steps (pooling,
 * normalization, activations). Has no Flink dependency so it can be used (and benchmarked)
 * without a cluster.
 */
package io.github.flinkinfer.runtime;
