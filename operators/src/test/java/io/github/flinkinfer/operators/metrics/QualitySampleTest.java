package io.github.flinkinfer.operators.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.run.QualityGate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The quality sample is uniform over the run, not its first items: 10,000 items with K = 50 give
 * samples in every decile of the run, the same items for a seed whatever the arrival order, other
 * items for another seed, and subtask samples merge. Each item's score here is its position, so
 * the kept scores are the sampled positions.
 */
class QualitySampleTest {
    static final int N = 10_000;
    static final int K = 50;

    /** Offers items at {@code positions} (ids {@code doc-<position>}); returns the sample and counts admissions. */
    static QualitySample sample(long seed, int capacity, List<Integer> positions, int[] admissions) {
        QualitySample s = QualitySample.empty(seed, capacity);
        for (int p : positions) {
            long priority = s.priority("doc-" + p);
            if (s.offer(priority)) {
                s.admit(priority, p);
                admissions[0]++;
            }
        }
        return s;
    }

    static List<Integer> inOrder() {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            positions.add(i);
        }
        return positions;
    }

    static int[] sortedPositions(QualitySample s) {
        int[] p = new int[s.size];
        for (int i = 0; i < s.size; i++) {
            p[i] = (int) s.scores[i];
        }
        Arrays.sort(p);
        return p;
    }

    static int[] deciles(QualitySample s) {
        int[] d = new int[10];
        for (int p : sortedPositions(s)) {
            d[p * 10 / N]++;
        }
        return d;
    }

    @Test
    void sampleIsSpreadOverTheWholeRun() {
        int[] admissions = {0};
        QualitySample s = sample(QualityGate.DEFAULT_SEED, K, inOrder(), admissions);
        assertThat(s.checked()).isEqualTo(K);
        assertThat(s.seen).isEqualTo(N);
        assertThat(deciles(s)).doesNotContain(0);
        // the first K items are not the sample: it reaches past the first decile
        assertThat(sortedPositions(s)[K - 1]).isGreaterThan(9 * N / 10);
        // reference runs: about K (1 + ln(N / K)) = 315, not N
        assertThat(admissions[0]).isBetween(K, 2 * (int) (K * (1 + Math.log((double) N / K))));
        // sum and min are the kept items' own, after every eviction
        assertThat(s.sum()).isEqualTo(Arrays.stream(sortedPositions(s)).asDoubleStream().sum());
        assertThat(s.min()).isEqualTo(Math.min(1.0, sortedPositions(s)[0]));

        int[] total = new int[10]; // over 40 seeds, about K / 10 = 5 per decile each
        for (long seed = 1; seed <= 40; seed++) {
            int[] d = deciles(sample(seed, K, inOrder(), new int[1]));
            for (int i = 0; i < 10; i++) {
                total[i] += d[i];
            }
        }
        assertThat(Arrays.stream(total).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(150, 250)); // expected 200
    }

    @Test
    void sameSeedSameItemsWhateverTheOrder() {
        List<Integer> shuffled = inOrder();
        Collections.shuffle(shuffled, new Random(7));
        int[] a = sortedPositions(sample(42, K, inOrder(), new int[1]));
        assertThat(sortedPositions(sample(42, K, shuffled, new int[1]))).containsExactly(a);
        assertThat(sortedPositions(sample(43, K, inOrder(), new int[1]))).isNotEqualTo(a);
    }

    @Test
    void subtaskSamplesMerge() {
        List<Integer> even = inOrder().stream().filter(p -> p % 2 == 0).toList();
        List<Integer> odd = inOrder().stream().filter(p -> p % 2 == 1).toList();
        QualitySample merged = sample(5, K / 2, even, new int[1]).merge(sample(5, K / 2, odd, new int[1]));
        assertThat(merged.checked()).isEqualTo(K);
        assertThat(merged.capacity).isEqualTo(K);
        assertThat(merged.seen).isEqualTo(N);
        assertThat(deciles(merged)).doesNotContain(0);
        assertThat(Arrays.stream(sortedPositions(merged)).filter(p -> p % 2 == 0).count()).isEqualTo(K / 2);
    }
}
