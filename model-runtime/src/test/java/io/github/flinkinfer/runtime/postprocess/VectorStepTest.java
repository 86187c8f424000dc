package io.github.flinkinfer.runtime.postprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class VectorStepTest {

    @Test
    void l2NormalizeScalesToUnitLengthAndLeavesZeroAlone() {
        float[] v = {3, 4};
        new L2Normalize().applyTo(v);
        assertThat(v).containsExactly(0.6f, 0.8f);
        float[] zero = {0, 0};
        new L2Normalize().applyTo(zero);
        assertThat(zero).containsExactly(0f, 0f);
    }

    @Test
    void softmaxGivesProbabilitiesThatSumToOne() {
        float[] v = {0f, (float) Math.log(3)};
        new Softmax().applyTo(v);
        assertThat(v[0]).isCloseTo(0.25f, within(1e-6f));
        assertThat(v[1]).isCloseTo(0.75f, within(1e-6f));
        float[] huge = {1000f, 1000f};
        new Softmax().applyTo(huge);
        assertThat(huge).containsExactly(0.5f, 0.5f);
    }

    @Test
    void sigmoidScoresEachLogitAlone() {
        float[] v = {0f, (float) Math.log(3), -1000f};
        new Sigmoid().applyTo(v);
        assertThat(v[0]).isEqualTo(0.5f);
        assertThat(v[1]).isCloseTo(0.75f, within(1e-6f));
        assertThat(v[2]).isEqualTo(0f);
    }

    @Test
    void appliesToEveryRowInPlace() {
        float[][] rows = {{3, 4}, {0, 2}};
        ModelOutput out = new ModelOutput.Vectors(rows);
        assertThat(new L2Normalize().apply(out)).isSameAs(out);
        assertThat(rows[0]).containsExactly(0.6f, 0.8f);
        assertThat(rows[1]).containsExactly(0f, 1f);
    }

    @Test
    void refusesTokenVectorsThatWereNotPooled() {
        assertThatThrownBy(() -> new Softmax().apply(PoolingStepTest.tokens()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Softmax needs one vector per input; put a pooling step before it");
    }
}
