package io.github.flinkinfer.runtime.postprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PostProcessingTest {

    @Test
    void runsTheStepsInOrder() {
        PostProcessor twice = out -> {
            for (float[] row : ((ModelOutput.Vectors) out).rows()) {
                row[0] *= 2;
            }
            return out;
        };
        float[][] normalizedThenDoubled = PostProcessing.of(new MeanPooling(), new L2Normalize(), twice)
                .apply(PoolingStepTest.tokens());
        assertThat(normalizedThenDoubled[0][0]).isCloseTo((float) (6 / Math.sqrt(34)), within(1e-6f));
        float[][] doubledThenNormalized =
                PostProcessing.of(List.of(new MeanPooling(), twice, new L2Normalize()))
                        .apply(PoolingStepTest.tokens());
        assertThat(doubledThenNormalized[0][0]).isCloseTo((float) (6 / Math.sqrt(61)), within(1e-6f));
    }

    @Test
    void mustEndWithOneVectorPerInput() {
        assertThatThrownBy(() -> PostProcessing.of().apply(PoolingStepTest.tokens()))
                .hasMessageContaining("put a pooling step before it");
    }
}
