package io.github.flinkinfer.runtime.postprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

class PoolingStepTest {
    /** Two inputs, three token slots, two dims; row 1 has one real token then padding (99s). */
    static ModelOutput.TokenVectors tokens() {
        float[] states = {
            1, 2,   3, 4,   5, 9,
            7, 8,   99, 99, 99, 99,
        };
        return new ModelOutput.TokenVectors(FloatBuffer.wrap(states), 2, 3, 2, new int[] {3, 1});
    }

    /** The pooled rows of {@code step} applied to {@code output}. */
    static float[][] pooled(PoolingStep step, ModelOutput output) {
        return ((ModelOutput.Vectors) step.apply(output)).rows();
    }

    /** {@code step} pools {@link #tokens()}' two inputs into {@code first} and {@code second}. */
    static void assertPoolsTokens(PoolingStep step, float[] first, float[] second) {
        float[][] pooled = pooled(step, tokens());
        assertThat(pooled[0]).containsExactly(first);
        assertThat(pooled[1]).containsExactly(second);
    }

    @Test
    void meanPoolingAveragesTheRealTokensOnly() {
        assertPoolsTokens(new MeanPooling(), new float[] {3f, 5f}, new float[] {7f, 8f});
    }

    @Test
    void meanPoolingOfAnEmptyInputIsZero() {
        ModelOutput.TokenVectors empty = new ModelOutput.TokenVectors(
                FloatBuffer.wrap(new float[] {5, 5}), 1, 1, 2, new int[] {0});
        assertThat(pooled(new MeanPooling(), empty)[0]).containsExactly(0f, 0f);
    }

    @Test
    void clsPoolingTakesEachInputsFirstToken() {
        assertPoolsTokens(new ClsPooling(), new float[] {1f, 2f}, new float[] {7f, 8f});
    }

    @Test
    void outputTheGraphPooledPassesThrough() {
        ModelOutput pooled = new ModelOutput.Vectors(new float[][] {{1, 2}});
        assertThat(new MeanPooling().apply(pooled)).isSameAs(pooled);
        assertThat(new ClsPooling().apply(pooled)).isSameAs(pooled);
    }
}
