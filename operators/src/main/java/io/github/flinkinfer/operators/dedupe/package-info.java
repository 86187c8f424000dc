/** Dedupe stage: one output per document id, before tokenization or keep-first after inference. */
package io.github.flinkinfer.operators.dedupe;
