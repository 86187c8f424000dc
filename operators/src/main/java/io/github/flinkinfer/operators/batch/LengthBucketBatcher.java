package io.github.flinkinfer.operators.batch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Groups items by token length into batches that respect a token budget.
 *
 * <p>Each item goes to the bucket whose edge range holds its length. A bucket flushes when it
 * holds {@code lookaheadBatches} batches' worth of items, when the whole batcher reaches {@code
 * maxBufferedItems} (the fullest bucket goes), when its oldest item has waited {@code
 * maxWaitMillis}, or at end of input. A flushing bucket is sorted by length and cut greedily
 * into batches of at most {@code maxBatchTokens} padded tokens and {@code maxBatchSize} rows; a
 * batch also closes where the sorted lengths drop below 90% of its padded length (after 8 rows),
 * so rows in a batch have near-equal lengths. The incomplete last batch stays buffered unless
 * everything is being flushed. An item longer than
 * the budget is emitted alone at once, so nothing ever stalls. Not thread-safe.
 *
 * <pre>{@code
 * LengthBucketBatcher<Doc> batcher = new LengthBucketBatcher<>(BatchingConfig.defaults(), Doc::tokens);
 * for (Doc d : docs) batcher.add(d, System.nanoTime()).forEach(this::run);
 * batcher.flushAll().forEach(this::run);
 * }</pre>
 */
public final class LengthBucketBatcher<T> {
    /** A row shorter than this share of the batch's padded length starts a new batch ... */
    static final double CUT_RATIO = 0.9;
    /** ... once the batch has this many rows (tiny batches cost more than padding). */
    static final int MIN_ROWS_BEFORE_CUT = 8;

    private final BatchingConfig config;
    private final ToIntFunction<T> tokens;
    private final Bucket<T>[] buckets;
    /** The config's bucket edges, read once: {@link BatchingConfig#bucketEdges} returns a copy. */
    private final int[] edges;
    private int buffered;

    /** One length range's items, in arrival order, with their enqueue times. */
    private static final class Bucket<T> {
        final int index;
        final int lowerExclusive;
        final int upperInclusive;
        final List<T> items = new ArrayList<>();
        final List<Long> enqueued = new ArrayList<>();
        long tokenSum;

        Bucket(int index, int lowerExclusive, int upperInclusive) {
            this.index = index;
            this.lowerExclusive = lowerExclusive;
            this.upperInclusive = upperInclusive;
        }

        long oldest() {
            long min = Long.MAX_VALUE;
            for (long t : enqueued) {
                min = Math.min(min, t);
            }
            return min;
        }
    }

    @SuppressWarnings("unchecked")
    public LengthBucketBatcher(BatchingConfig config, ToIntFunction<T> tokens) {
        this.config = config;
        this.tokens = tokens;
        this.edges = config.bucketEdges();
        this.buckets = new Bucket[edges.length + 1];
        int lower = 0;
        for (int i = 0; i < edges.length; i++) {
            buckets[i] = new Bucket<>(i, lower, edges[i]);
            lower = edges[i];
        }
        buckets[edges.length] = new Bucket<>(edges.length, lower, Integer.MAX_VALUE);
    }

    /** Adds one item; returns the batches that became ready (often none). */
    public List<Batch<T>> add(T item, long nowNanos) {
        int len = tokens.applyAsInt(item);
        if (len >= config.maxBatchTokens()) {
            Bucket<T> b = buckets[bucketOf(len)];
            return List.of(new Batch<>(List.of(item), b.index, b.upperInclusive, len, len, nowNanos));
        }
        Bucket<T> bucket = buckets[bucketOf(len)];
        bucket.items.add(item);
        bucket.enqueued.add(nowNanos);
        bucket.tokenSum += len;
        buffered++;
        List<Batch<T>> ready = new ArrayList<>();
        if (isFull(bucket)) {
            cut(bucket, false, ready);
        }
        if (buffered >= config.maxBufferedItems()) {
            cut(fullest(), true, ready); // all of it, so the bound always makes progress
        }
        return ready;
    }

    /** Flushes buckets whose oldest item entered before {@code nowNanos - maxWait}. */
    public List<Batch<T>> flushExpired(long nowNanos) {
        List<Batch<T>> ready = new ArrayList<>();
        if (config.maxWaitMillis() == 0) {
            return ready;
        }
        long limit = nowNanos - config.maxWaitMillis() * 1_000_000L;
        for (Bucket<T> b : buckets) {
            if (!b.items.isEmpty() && b.oldest() <= limit) {
                cut(b, true, ready);
            }
        }
        return ready;
    }

    /** End of input: everything buffered, as batches. */
    public List<Batch<T>> flushAll() {
        List<Batch<T>> ready = new ArrayList<>();
        for (Bucket<T> b : buckets) {
            cut(b, true, ready);
        }
        return ready;
    }

    /** Items currently buffered (for checkpointing), in bucket order. */
    public List<T> bufferedItems() {
        List<T> all = new ArrayList<>(buffered);
        for (Bucket<T> b : buckets) {
            all.addAll(b.items);
        }
        return all;
    }

    public int bufferedCount() {
        return buffered;
    }

    private boolean isFull(Bucket<T> b) {
        int n = b.items.size();
        int minRowLen = Math.max(1, Math.min(b.lowerExclusive + 1, config.maxBatchTokens()));
        int rowsPerBatch = Math.min(config.maxBatchSize(), config.maxBatchTokens() / minRowLen);
        long lookahead = config.lookaheadBatches();
        return n >= rowsPerBatch * lookahead || b.tokenSum >= config.maxBatchTokens() * lookahead;
    }

    private Bucket<T> fullest() {
        Bucket<T> best = buckets[0];
        for (Bucket<T> b : buckets) {
            if (b.tokenSum > best.tokenSum) {
                best = b;
            }
        }
        return best;
    }

    /**
     * Sorts the bucket longest first and cuts batches greedily; keeps an incomplete last batch
     * buffered unless {@code all}.
     */
    private void cut(Bucket<T> b, boolean all, List<Batch<T>> out) {
        int n = b.items.size();
        if (n == 0) {
            return;
        }
        int[] len = new int[n];
        long[] keys = new long[n]; // longest first, ties in arrival order: (MAX - length, index)
        for (int i = 0; i < n; i++) {
            len[i] = tokens.applyAsInt(b.items.get(i));
            keys[i] = (long) (Integer.MAX_VALUE - len[i]) << 32 | i;
        }
        Arrays.sort(keys);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = (int) keys[i];
        }
        List<T> keep = new ArrayList<>();
        List<Long> keepTimes = new ArrayList<>();
        int i = 0;
        while (i < n) {
            int padded = len[order[i]];
            int rows = Math.min(config.maxBatchSize(), Math.max(1, config.maxBatchTokens() / padded));
            int end = Math.min(n, i + rows);
            boolean complete = end - i == rows;
            // Close the batch early where the lengths drop: a row shorter than CUT_RATIO of the
            // padded length would waste over 10% of its compute, so it starts the next batch.
            for (int j = i + MIN_ROWS_BEFORE_CUT; j < end; j++) {
                if (len[order[j]] < padded * CUT_RATIO) {
                    end = j;
                    complete = true;
                    break;
                }
            }
            if (!complete && !all) {
                for (int j = i; j < end; j++) {
                    keep.add(b.items.get(order[j]));
                    keepTimes.add(b.enqueued.get(order[j]));
                }
                break;
            }
            List<T> items = new ArrayList<>(end - i);
            long real = 0;
            long oldest = Long.MAX_VALUE;
            for (int j = i; j < end; j++) {
                items.add(b.items.get(order[j]));
                real += len[order[j]];
                oldest = Math.min(oldest, b.enqueued.get(order[j]));
            }
            out.add(new Batch<>(items, b.index, b.upperInclusive, padded, real, oldest));
            i = end;
        }
        buffered -= n - keep.size();
        b.items.clear();
        b.enqueued.clear();
        b.items.addAll(keep);
        b.enqueued.addAll(keepTimes);
        b.tokenSum = 0;
        for (T t : keep) {
            b.tokenSum += tokens.applyAsInt(t);
        }
    }

    private int bucketOf(int len) {
        int idx = Arrays.binarySearch(edges, len);
        return idx >= 0 ? idx : -idx - 1; // first edge >= len; edges.length = overflow
    }
}
