package io.github.flinkinfer.bench.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * Exact cosine top-k over all documents: a brute-force scan, so the metrics measure the model and
 * not an approximate index (500 x 5,000 x 384 is a fraction of a second). Ties go to the smaller id.
 */
public final class ExactSearch {
    private final List<String> ids = new ArrayList<>();
    private final List<float[]> unit = new ArrayList<>();

    /** Indexes every document's vector, normalized. */
    public ExactSearch(Map<String, float[]> documents) {
        new TreeMap<>(documents).forEach((id, v) -> {
            ids.add(id);
            unit.add(normalized(v));
        });
    }

    /** The ids of the {@code k} documents nearest to the query, nearest first. */
    public List<String> top(float[] query, int k) {
        float[] q = normalized(query);
        Comparator<Hit> worstFirst = Comparator.comparingDouble(Hit::score)
                .thenComparing(Hit::id, Comparator.reverseOrder());
        PriorityQueue<Hit> best = new PriorityQueue<>(worstFirst);
        for (int d = 0; d < ids.size(); d++) {
            best.add(new Hit(ids.get(d), dot(q, unit.get(d))));
            if (best.size() > k) {
                best.poll();
            }
        }
        List<Hit> hits = new ArrayList<>(best);
        hits.sort(worstFirst.reversed());
        return hits.stream().map(Hit::id).toList();
    }

    private record Hit(String id, double score) {}

    private static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("dimensions differ: " + a.length + " vs " + b.length);
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static float[] normalized(float[] v) {
        double n = Math.sqrt(dot(v, v));
        float[] u = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            u[i] = n == 0 ? 0 : (float) (v[i] / n);
        }
        return u;
    }
}
