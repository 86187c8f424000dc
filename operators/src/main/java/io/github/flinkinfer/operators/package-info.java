/**
 * Flink operators of the inference pipeline: tokenize, batch-and-infer, and the records they
 * exchange (documents, results, errors, per-batch metrics). Data flows one way: {@link
 * io.github.flinkinfer.operators.Document} → {@link io.github.flinkinfer.operators.TokenizeFunction}
 * → {@link io.github.flinkinfer.operators.BatchInferenceOperator} → results; failures leave
 * through the {@link io.github.flinkinfer.operators.Outputs#ERRORS} side output.
 */
package io.github.flinkinfer.operators;
