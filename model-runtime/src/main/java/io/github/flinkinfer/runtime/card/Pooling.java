package io.github.flinkinfer.runtime.card;

/** How token vectors become one sentence vector. */
public enum Pooling {
    /** Average of the token vectors under the attention mask (sentence-transformers default). */
    MEAN,
    /** The first ([CLS]) token's vector. */
    CLS
}
