/**
 * The records every stage of the inference pipeline passes on ({@link
 * io.github.flinkinfer.operators.Document} → {@link io.github.flinkinfer.operators.TokenizedDocument}
 * → {@link io.github.flinkinfer.operators.InferenceResult}) and the side outputs every stage may
 * write to ({@link io.github.flinkinfer.operators.Outputs}). The stages live in sub-packages named
 * after them: {@code incremental → tokenize → batch → run → dedupe → pool}, with {@code errors},
 * {@code metrics} and {@code ledger} beside them (docs/architecture.md, "Packages").
 */
package io.github.flinkinfer.operators;
