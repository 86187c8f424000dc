/**
 * Run stage: ONNX Runtime options, sessions (prepared, shared, optimized-graph cached) and the
 * models behind the seam.
 */
package io.github.flinkinfer.runtime.onnx;
