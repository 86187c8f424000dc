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

    /**
     * Over direct memory (where ORT writes the pinned output), with ragged lengths: the same bits
     * as summing each real token's floats one {@code get(i)} at a time, in token order.
     */
    @Test
    void meanPoolingOverDirectMemoryGivesTheBitsOfThePlainSum() {
        int rows = 7, tokens = 33, hidden = 384;
        java.util.Random random = new java.util.Random(23);
        FloatBuffer states = java.nio.ByteBuffer.allocateDirect(rows * tokens * hidden * Float.BYTES)
                .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        for (int i = 0; i < states.capacity(); i++) {
            states.put(i, (float) (random.nextGaussian() * Math.pow(10, random.nextInt(7) - 3)));
        }
        int[] lengths = {33, 1, 0, 17, 32, 2, 9};
        var output = new ModelOutput.TokenVectors(states, rows, tokens, hidden, lengths);
        float[][] pooled = pooled(new MeanPooling(), output);
        for (int r = 0; r < rows; r++) {
            float[] expected = new float[hidden];
            for (int t = 0; t < lengths[r]; t++) {
                for (int h = 0; h < hidden; h++) {
                    expected[h] += states.get(output.rowStart(r) + t * hidden + h);
                }
            }
            float inv = 1f / Math.max(1, lengths[r]);
            for (int h = 0; h < hidden; h++) {
                expected[h] *= inv;
            }
            for (int h = 0; h < hidden; h++) {
                assertThat(Float.floatToRawIntBits(pooled[r][h])).as("row %d dim %d", r, h)
                        .isEqualTo(Float.floatToRawIntBits(expected[h]));
            }
        }
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
