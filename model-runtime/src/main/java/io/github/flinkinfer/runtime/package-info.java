/**
 * Runs ONNX models over batches of tokenized text: model cards, integrity checks, tokenization,
 * ONNX Runtime sessions, pooling. Has no Flink dependency so it can be used (and benchmarked)
 * without a cluster.
 */
package io.github.flinkinfer.runtime;
