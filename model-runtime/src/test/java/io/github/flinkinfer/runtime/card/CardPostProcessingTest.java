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
        ModelCard raw = ModelCard.builtIn("e5-small-v2").toBuilder().normalize(false).build();
        assertThat(raw.postProcessing()).hasToString("MeanPooling");
    }

    @Test
    void aClassifierGetsItsActivationInsteadOfNormalization() {
        ModelCard spam = ModelCard.builtIn("spam-assassin-minilm");
        assertThat(spam.postProcessing()).as("its head ends in a Softmax node").hasToString("MeanPooling");
        Classification c = spam.classification;
        ModelCard defaultActivation = spam.toBuilder()
                .classification(new Classification(c.labels, c.multiLabel, null, c.thresholds, c.headInput, c.headOutput))
                .build();
        assertThat(defaultActivation.postProcessing()).hasToString("MeanPooling -> Softmax");
        Classification multi = new Classification(List.of("a", "b"), true, null, null, null, null);
        assertThat(multi.activationSteps()).hasToString("Sigmoid");
        Classification none = new Classification(List.of("a", "b"), true, Classification.Activation.NONE, null, null, null);
        assertThat(none.activationSteps().steps()).isEmpty();
    }
}
