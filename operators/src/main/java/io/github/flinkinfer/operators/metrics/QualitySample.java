package io.github.flinkinfer.operators.metrics;

import java.nio.charset.StandardCharsets;

/**
 * A uniform sample of at most {@code capacity} of the items one subtask produced, with each kept
 * item's quality score, as a small mergeable value. Every item gets a priority, a seeded 64-bit
 * hash of its id; the sample holds the {@code capacity} items of lowest priority seen so far (a
 * bottom-k reservoir). Unlike Algorithm R with a seeded random stream, the sample depends only
 * on the seed and the set of ids, not on the order in which items arrive (Flink's shuffles do
 * not fix one), so a rerun with the same seed and corpus checks the same items. Admitting an item
 * may evict the highest-priority one; sum and min are recomputed from the kept scores.
 *
 * <p>Merging two subtasks' samples ({@link #merge}) keeps both (each is uniform over its own
 * subtask's items): the run's sample is stratified by subtask, {@code capacity} summed.
 */
public class QualitySample {
    public long seed;
    public int capacity;
    /** Items offered to the sample (every successful item of the subtask). */
    public long seen;
    /** Kept items: priorities and scores, {@code size} of them in use. */
    public long[] priorities = new long[0];
    public double[] scores = new double[0];
    public int size;

    public QualitySample() {}

    public static QualitySample empty(long seed, int capacity) {
        QualitySample s = new QualitySample();
        s.seed = seed;
        s.capacity = capacity;
        s.priorities = new long[capacity];
        s.scores = new double[capacity];
        return s;
    }

    /** The item's priority under this sample's seed (a hash of its id: no arrival order in it). */
    public long priority(String id) {
        long h = 0xcbf29ce484222325L ^ seed; // FNV-1a over the UTF-8 bytes, then a SplitMix64 finish
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        return (h ^ (h >>> 31)) >>> 1; // non-negative
    }

    /** Counts one offered item; whether an item of {@code priority} would be kept (check it then). */
    public boolean offer(long priority) {
        seen++;
        return capacity > 0 && (size < capacity || priority < priorities[highest()]);
    }

    /**
     * Keeps an item that {@link #offer} accepted, evicting the highest-priority one when full.
     *
     * @return the evicted item's score, or NaN when nothing was evicted
     */
    public double admit(long priority, double score) {
        if (size < capacity) {
            priorities[size] = priority;
            scores[size++] = score;
            return Double.NaN;
        }
        int h = highest();
        double evicted = scores[h];
        priorities[h] = priority;
        scores[h] = score;
        return evicted;
    }

    private int highest() {
        int h = 0;
        for (int i = 1; i < size; i++) {
            if (priorities[i] > priorities[h]) {
                h = i;
            }
        }
        return h;
    }

    /** Both samples' items (stratified by subtask); the seeds must agree. */
    public QualitySample merge(QualitySample other) {
        if (other.seed != seed) {
            throw new IllegalArgumentException("quality samples of seeds " + seed + " and " + other.seed);
        }
        QualitySample m = empty(seed, capacity + other.capacity);
        m.seen = seen + other.seen;
        System.arraycopy(priorities, 0, m.priorities, 0, size);
        System.arraycopy(scores, 0, m.scores, 0, size);
        System.arraycopy(other.priorities, 0, m.priorities, size, other.size);
        System.arraycopy(other.scores, 0, m.scores, size, other.size);
        m.size = size + other.size;
        return m;
    }

    public int checked() {
        return size;
    }

    public double sum() {
        double s = 0;
        for (int i = 0; i < size; i++) {
            s += scores[i];
        }
        return s;
    }

    /** The lowest kept score; 1 when empty (nothing drifted). */
    public double min() {
        double m = 1.0;
        for (int i = 0; i < size; i++) {
            m = Math.min(m, scores[i]);
        }
        return m;
    }

    public double mean() {
        return size == 0 ? 0 : sum() / size;
    }
}
