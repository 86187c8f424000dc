package io.github.flinkinfer.operators.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @Test
    void readingsWithinTheRefreshShareOneValueAndLaterOnesSeeTheCpuSpent() {
        // later than any reading other tests of this JVM took, so this one is fresh and stamped t0
        long t0 = System.nanoTime() + 2 * ProcessCpu.REFRESH_NANOS;
        long first = ProcessCpu.millis(t0);
        assertThat(first).isPositive();
        spinFor(3 * ProcessCpu.REFRESH_NANOS);
        assertThat(ProcessCpu.millis(t0 + ProcessCpu.REFRESH_NANOS - 1))
                .as("within the refresh of the first reading").isEqualTo(first);
        assertThat(ProcessCpu.millis(t0 + ProcessCpu.REFRESH_NANOS))
                .as("a new reading, after spinning %d ms", 3 * ProcessCpu.REFRESH_NANOS / 1_000_000)
                .isGreaterThan(first);
        assertThat(ProcessCpu.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    private static void spinFor(long nanos) {
        long until = System.nanoTime() + nanos;
        double sink = 0;
        while (System.nanoTime() < until) {
            sink += Math.sqrt(sink + 1);
        }
        assertThat(sink).isPositive();
    }
}
