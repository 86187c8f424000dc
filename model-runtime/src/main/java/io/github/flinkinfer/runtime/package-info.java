/**
 * The seam between the pipeline and an inference engine ({@link
 * io.github.flinkinfer.runtime.ModelRuntime}: token ids in, one {@link io.github.flinkinfer.runtime.Inference}
 * out) and the small types it speaks in. The stages behind it live in sub-packages: {@code card}
 * (what a model is), {@code files} (its verified files), {@code tokenize}, {@code onnx} (ONNX
 * Runtime sessions and models) and {@code postprocess}. Has no Flink dependency so it can be used
 * (and benchmarked) without a cluster.
 */
package io.github.flinkinfer.runtime;
