/**
 * What a node gives ONNX Runtime's CUDA provider, checked without loading it: the libraries the
 * provider needs and where the loader finds them, the NVIDIA driver and its GPUs, a verdict with
 * the fix ({@link io.github.flinkinfer.runtime.node.CudaDoctor}), and ONNX Runtime natives from a
 * directory ({@link io.github.flinkinfer.runtime.node.OrtNatives}). JDK only: it runs with a
 * tiny classpath (a container's health check).
 */
package io.github.flinkinfer.runtime.node;
