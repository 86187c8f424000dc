package io.github.flinkinfer.bench.retrieval;

import java.util.List;
import java.util.Set;

/** recall@k and nDCG@k of one ranking with binary relevance, as BEIR and MTEB compute them. */
public final class RetrievalMetrics {
    private RetrievalMetrics() {}

    /** Share of the relevant documents found in the first {@code k} of the ranking (0 when none are relevant). */
    public static double recallAt(int k, List<String> ranking, Set<String> relevant) {
        if (relevant.isEmpty()) {
            return 0;
        }
        long found = ranking.stream().limit(k).filter(relevant::contains).count();
        return (double) found / relevant.size();
    }

    /** DCG of the first {@code k} (gain 1 / log2(rank + 1)) over the DCG of a perfect ranking. */
    public static double ndcgAt(int k, List<String> ranking, Set<String> relevant) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranking.size()); i++) {
            if (relevant.contains(ranking.get(i))) {
                dcg += discount(i);
            }
        }
        double ideal = 0;
        for (int i = 0; i < Math.min(k, relevant.size()); i++) {
            ideal += discount(i);
        }
        return ideal == 0 ? 0 : dcg / ideal;
    }

    private static double discount(int zeroBasedRank) {
        return 1 / (Math.log(zeroBasedRank + 2) / Math.log(2));
    }
}
