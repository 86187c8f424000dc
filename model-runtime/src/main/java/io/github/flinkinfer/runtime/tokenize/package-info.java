/**
 * Tokenize stage: a model's tokenizer (HF tokenizer.json through DJL, or BERT's WordPiece in
 * Java), single texts and pairs.
 */
package io.github.flinkinfer.runtime.tokenize;
