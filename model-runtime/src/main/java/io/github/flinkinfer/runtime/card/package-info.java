/** Card stage: a model card (files, tokenizer, shapes, task, post-processing), checked against its schema. */
package io.github.flinkinfer.runtime.card;
