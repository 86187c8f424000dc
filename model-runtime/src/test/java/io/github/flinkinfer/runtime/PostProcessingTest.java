package io.github.flinkinfer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PostProcessingTest {

    @Test
    void theCardPicksPoolingThenNormalization() {
        assertThat(PostProcessing.forCard(ModelCard.builtIn("all-minilm-l6-v2")))
                .hasToString("MeanPooling -> L2Normalize");
        assertThat(PostProcessing.forCard(ModelCard.builtIn("bge-small-en-v1.5")))
                .hasToString("ClsPooling -> L2Normalize");
        ModelCard raw = ModelCard.builtIn("e5-small-v2");
        raw.normalize = false;
        assertThat(PostProcessing.forCard(raw)).hasToString("MeanPooling");
    }

    @Test
    void aClassifierGetsItsActivationInsteadOfNormalization() {
        ModelCard spam = ModelCard.builtIn("spam-assassin-minilm");
        assertThat(PostProcessing.forCard(spam)).as("its head ends in a Softmax node").hasToString("MeanPooling");
        spam.classification.activation = null;
        assertThat(PostProcessing.forCard(spam)).hasToString("MeanPooling -> Softmax");
        Classification multi = new Classification();
        multi.labels = List.of("a", "b");
        multi.multiLabel = true;
        assertThat(PostProcessing.activation(multi)).hasToString("Sigmoid");
        multi.activation = Classification.Activation.NONE;
        assertThat(PostProcessing.activation(multi).steps()).isEmpty();
    }

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
        float[][] doubledThenNormalized = PostProcessing.of(List.of(new MeanPooling(), twice, new L2Normalize()))
                .apply(PoolingStepTest.tokens());
        assertThat(doubledThenNormalized[0][0]).isCloseTo((float) (6 / Math.sqrt(61)), within(1e-6f));
    }

    @Test
    void mustEndWithOneVectorPerInput() {
        assertThatThrownBy(() -> PostProcessing.of().apply(PoolingStepTest.tokens()))
                .hasMessageContaining("put a pooling step before it");
    }
}
