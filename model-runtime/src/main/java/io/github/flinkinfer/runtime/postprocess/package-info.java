/**
 * What runs after the session: {@link io.github.flinkinfer.runtime.postprocess.PostProcessor}
 * steps (pooling, normalization, activations) composed into a {@link
 * io.github.flinkinfer.runtime.postprocess.PostProcessing}; plain arrays in, plain arrays out, no
 * ONNX Runtime types.
 */
package io.github.flinkinfer.runtime.postprocess;
