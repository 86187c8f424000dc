package io.github.flinkinfer.runtime.card;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CardPostProcessingTest {

    @Test
    void theCardPicksPoolingThenNormalization() {
        assertThat(ModelCard.builtIn("all-minilm-l6-v2").postProcessing())
                .hasToString("MeanPooling -> L2Normalize");
        assertThat(ModelCard.builtIn("bge-small-en-v1.5").postProcessing())
                .hasToString("ClsPooling -> L2Normalize");
        ModelCard raw = ModelCard.builtIn("e5-small-v2");
        raw.normalize = false;
        assertThat(raw.postProcessing()).hasToString("MeanPooling");
    }

    @Test
    void aClassifierGetsItsActivationInsteadOfNormalization() {
        ModelCard spam = ModelCard.builtIn("spam-assassin-minilm");
        assertThat(spam.postProcessing()).as("its head ends in a Softmax node").hasToString("MeanPooling");
        spam.classification.activation = null;
        assertThat(spam.postProcessing()).hasToString("MeanPooling -> Softmax");
        Classification multi = new Classification();
        multi.labels = List.of("a", "b");
        multi.multiLabel = true;
        assertThat(multi.activationSteps()).hasToString("Sigmoid");
        multi.activation = Classification.Activation.NONE;
        assertThat(multi.activationSteps().steps()).isEmpty();
    }
}
