package io.github.flinkinfer.runtime.card;

/** What a model computes; decides the post-processing. */
public enum ModelTask {
    EMBEDDING,
    CLASSIFICATION
}
