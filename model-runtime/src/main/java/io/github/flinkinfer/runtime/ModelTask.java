package io.github.flinkinfer.runtime;

/** What a model computes; decides the post-processing. */
public enum ModelTask {
    EMBEDDING,
    CLASSIFICATION
}
