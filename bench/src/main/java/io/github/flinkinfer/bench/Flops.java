package io.github.flinkinfer.bench;

import io.github.flinkinfer.runtime.card.ModelCard;

/**
 * FLOPs of a transformer encoder pass, from the model card's shape (L layers, hidden d,
 * intermediate f). Per token: dense layers {@code 2·L·(4d² + 2·d·f)} (Q, K, V, O projections
 * and the two FFN matrices; 2 FLOPs per multiply-add); attention {@code 2·L·2·T·d} for a
 * sequence of length T (QKᵀ and A·V). Embedding lookups, layer norms, softmax and pooling are
 * ignored (under 2% here). "Useful" FLOPs count real tokens at their own length; "executed"
 * FLOPs count padded rows at the batch's padded length.
 */
final class Flops {
    private final long perTokenDense;
    private final long perTokenPerPositionAttention;

    Flops(ModelCard.Shape s) {
        perTokenDense = 2L * s.layers * (4L * s.hidden * s.hidden + 2L * s.hidden * s.intermediate);
        perTokenPerPositionAttention = 2L * s.layers * 2L * s.hidden;
    }

    /** FLOPs for one sequence of {@code len} tokens. */
    double sequence(int len) {
        return (double) len * (perTokenDense + perTokenPerPositionAttention * (double) len);
    }

    /** FLOPs for a batch of {@code rows} padded to {@code paddedLen}. */
    double batch(int rows, int paddedLen) {
        return rows * sequence(paddedLen);
    }
}
