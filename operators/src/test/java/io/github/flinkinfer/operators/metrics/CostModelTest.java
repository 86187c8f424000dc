package io.github.flinkinfer.operators.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CostModelTest {
    @Test
    void taskManagerPriceIsSplitOverSlots() {
        CostModel m = new CostModel(3.60, 4, 0.05, 2, 2.0, 0, "USD");
        assertThat(m.subtaskPricePerHour(false)).isCloseTo(0.90, within(1e-12));
        assertThat(m.subtaskPricePerHour(true)).as("TM price includes its GPUs").isCloseTo(0.90, within(1e-12));
        assertThat(m.cost(60_000, false)).isCloseTo(0.015, within(1e-12)); // one minute
    }

    @Test
    void perResourcePricesChargeCoresAndGpus() {
        CostModel m = new CostModel(0, 1, 0.05, 2, 2.50, 0, "EUR");
        assertThat(m.subtaskPricePerHour(false)).isCloseTo(0.10, within(1e-12));
        assertThat(m.subtaskPricePerHour(true)).isCloseTo(2.60, within(1e-12));
        assertThat(m.cost(1_800_000, true)).isCloseTo(1.30, within(1e-12)); // half an hour
        assertThat(CostModel.FREE.cost(1e9, true)).isZero();
    }
}
