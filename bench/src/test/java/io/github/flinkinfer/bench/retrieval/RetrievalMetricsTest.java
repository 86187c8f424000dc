package io.github.flinkinfer.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** recall@k and nDCG@k on hand-made rankings, and exact search ranking by cosine. */
class RetrievalMetricsTest {
    static final List<String> RANKING = List.of("a", "x", "b", "y", "z");

    @Test
    void recallCountsRelevantDocumentsInTheFirstK() {
        Set<String> relevant = Set.of("a", "b", "c");
        assertThat(RetrievalMetrics.recallAt(5, RANKING, relevant)).isEqualTo(2.0 / 3);
        assertThat(RetrievalMetrics.recallAt(2, RANKING, relevant)).isEqualTo(1.0 / 3);
        assertThat(RetrievalMetrics.recallAt(1, List.of("x"), relevant)).isZero();
        assertThat(RetrievalMetrics.recallAt(10, RANKING, Set.of())).isZero();
    }

    @Test
    void ndcgDiscountsByRankAndNormalizesByThePerfectRanking() {
        // relevant at ranks 1 and 3: DCG = 1 + 1/log2(4) = 1.5; ideal (2 relevant) = 1 + 1/log2(3)
        double ideal = 1 + 1 / (Math.log(3) / Math.log(2));
        assertThat(RetrievalMetrics.ndcgAt(10, RANKING, Set.of("a", "b"))).isCloseTo(1.5 / ideal, within(1e-12));
        // every relevant document first: 1
        assertThat(RetrievalMetrics.ndcgAt(10, List.of("a", "b"), Set.of("a", "b"))).isEqualTo(1.0);
        // one relevant at rank 2: 1/log2(3)
        assertThat(RetrievalMetrics.ndcgAt(10, RANKING, Set.of("x"))).isCloseTo(0.6309297535714574, within(1e-12));
        // cut-off: the relevant document at rank 3 does not count at k = 2
        assertThat(RetrievalMetrics.ndcgAt(2, RANKING, Set.of("b"))).isZero();
        assertThat(RetrievalMetrics.ndcgAt(10, RANKING, Set.of())).isZero();
    }

    @Test
    void exactSearchRanksByCosineWithTiesToTheSmallerId() {
        ExactSearch search = new ExactSearch(Map.of(
                "far", new float[] {0, 1},
                "near", new float[] {10, 1},
                "same-b", new float[] {2, 0},
                "same-a", new float[] {5, 0}));
        assertThat(search.top(new float[] {1, 0}, 3)).containsExactly("same-a", "same-b", "near");
        assertThat(search.top(new float[] {0, 3}, 1)).containsExactly("far");
    }
}
