package io.github.flinkinfer.operators.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LogHistogramTest {
    @Test
    void percentilesAreWithinOneBinOfTheExactNearestRank() {
        Random r = new Random(7);
        double[] values = new double[10_000];
        LogHistogram h = new LogHistogram();
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.exp(r.nextGaussian() * 1.5 + 4); // ms, a long tail
            h.add(values[i]);
        }
        Arrays.sort(values);
        for (int p : new int[] {50, 90, 95, 99, 100}) {
            double exact = values[(int) Math.ceil(p / 100.0 * values.length) - 1];
            assertThat(h.percentile(p)).as("p" + p).isBetween(exact, exact * LogHistogram.GROWTH);
        }
        assertThat(h.percentile(100)).isEqualTo(values[values.length - 1]);
    }

    @Test
    void mergingEqualsAddingEverythingToOne() {
        LogHistogram a = new LogHistogram();
        LogHistogram b = new LogHistogram();
        LogHistogram all = new LogHistogram();
        for (int i = 1; i <= 1000; i++) {
            (i % 3 == 0 ? a : b).add(i * 0.7);
            all.add(i * 0.7);
        }
        a.merge(b);
        assertThat(a.counts).isEqualTo(all.counts);
        assertThat(a.total).isEqualTo(1000);
        assertThat(a.min).isEqualTo(0.7);
        assertThat(a.max).isEqualTo(700.0, within(1e-9));
        assertThat(a.percentile(50)).isEqualTo(all.percentile(50));
        assertThat(new LogHistogram().percentile(99)).isZero();
    }
}
