package io.github.flinkinfer.operators.batch;

import java.util.List;

/**
 * Items to run together, padded to the longest one.
 *
 * @param bucket index of the length bucket the items came from
 * @param bucketEdge that bucket's upper token length ({@code Integer.MAX_VALUE} for overflow)
 * @param oldestEnqueueNanos {@link System#nanoTime()} when the oldest item entered the batcher
 */
public record Batch<T>(
        List<T> items,
        int bucket,
        int bucketEdge,
        int paddedLength,
        long realTokens,
        long oldestEnqueueNanos) {

    public int size() {
        return items.size();
    }

    public long paddedTokens() {
        return (long) paddedLength * items.size();
    }

    public double paddingEfficiency() {
        long padded = paddedTokens();
        return padded == 0 ? 1.0 : (double) realTokens / padded;
    }
}
