package io.github.flinkinfer.operators.batch;

import java.io.Serializable;
import java.util.Arrays;

/**
 * How inputs are grouped into batches.
 *
 * @param bucketEdges upper token lengths of the buckets, ascending (e.g. 16,32,64,128,256,512)
 * @param maxBatchTokens token budget: max padded tokens (rows × longest row) per batch
 * @param maxBatchSize max rows per batch
 * @param maxBufferedItems bound on items held by one batcher; the fullest bucket is flushed when
 *     it is reached
 * @param lookaheadBatches a bucket flushes once it holds this many batches' worth of items; it
 *     is then sorted by length and cut into batches, so rows in a batch have near-equal lengths
 * @param maxWaitMillis flush a bucket whose oldest item has waited this long (0 = never; for
 *     unbounded sources)
 */
public record BatchingConfig(
        int[] bucketEdges,
        int maxBatchTokens,
        int maxBatchSize,
        int maxBufferedItems,
        int lookaheadBatches,
        long maxWaitMillis)
        implements Serializable {

    private static final int[] DEFAULT_EDGES = BatchingOptions.edges(BatchingOptions.DEFAULT_BUCKET_EDGES);

    /** The default bucket edges ({@link BatchingOptions#DEFAULT_BUCKET_EDGES}), a fresh copy. */
    public static int[] defaultEdges() {
        return DEFAULT_EDGES.clone();
    }

    /** The defaults of {@link BatchingOptions}, with no max wait (bounded inputs). */
    public static BatchingConfig defaults() {
        return new BatchingConfig(DEFAULT_EDGES, BatchingOptions.DEFAULT_MAX_BATCH_TOKENS,
                BatchingOptions.DEFAULT_MAX_BATCH_SIZE, BatchingOptions.DEFAULT_MAX_BUFFERED_ITEMS,
                BatchingOptions.DEFAULT_LOOKAHEAD_BATCHES, 0);
    }

    public BatchingConfig {
        bucketEdges = bucketEdges.clone();
        check(bucketEdges.length > 0, "at least one bucket edge");
        for (int i = 0; i < bucketEdges.length; i++) {
            check(bucketEdges[i] > 0, "bucket edges > 0");
            check(i == 0 || bucketEdges[i] > bucketEdges[i - 1], "bucket edges ascending");
        }
        check(maxBatchTokens > 0, "max batch tokens > 0");
        check(maxBatchSize > 0, "max batch size > 0");
        check(lookaheadBatches > 0, "lookahead batches > 0");
        check(maxBufferedItems >= maxBatchSize, "max buffered items >= max batch size");
        check(maxWaitMillis >= 0, "max wait >= 0");
    }

    /** The bucket edges, a copy: the config stays as built. */
    @Override
    public int[] bucketEdges() {
        return bucketEdges.clone();
    }

    /** Rejects a budget that cannot hold one input of the model's maximum length. */
    public BatchingConfig validateFor(int maxSequenceLength) {
        check(
                maxBatchTokens >= maxSequenceLength,
                "max batch tokens (" + maxBatchTokens + ") >= the max sequence length ("
                        + maxSequenceLength + "), so every input fits in a batch");
        return this;
    }

    public BatchingConfig withMaxBatchTokens(int tokens) {
        return new BatchingConfig(
                bucketEdges, tokens, maxBatchSize, maxBufferedItems, lookaheadBatches, maxWaitMillis);
    }

    public BatchingConfig withMaxBatchSize(int size) {
        return new BatchingConfig(
                bucketEdges, maxBatchTokens, size, Math.max(size, maxBufferedItems), lookaheadBatches,
                maxWaitMillis);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalArgumentException("Batching config needs " + what);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatchingConfig c
                && Arrays.equals(bucketEdges, c.bucketEdges)
                && maxBatchTokens == c.maxBatchTokens
                && maxBatchSize == c.maxBatchSize
                && maxBufferedItems == c.maxBufferedItems
                && lookaheadBatches == c.lookaheadBatches
                && maxWaitMillis == c.maxWaitMillis;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bucketEdges) * 31 + maxBatchTokens;
    }

    @Override
    public String toString() {
        return "BatchingConfig{edges=" + Arrays.toString(bucketEdges) + ", maxBatchTokens="
                + maxBatchTokens + ", maxBatchSize=" + maxBatchSize + ", maxBufferedItems="
                + maxBufferedItems + ", lookaheadBatches=" + lookaheadBatches + ", maxWaitMillis="
                + maxWaitMillis + "}";
    }
}
