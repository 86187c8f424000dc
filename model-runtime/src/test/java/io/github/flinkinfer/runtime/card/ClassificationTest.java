package io.github.flinkinfer.runtime.card;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassificationTest {

    private static Classification of(boolean multiLabel, Map<String, Float> thresholds, String... labels) {
        return of(multiLabel, null, thresholds, labels);
    }

    private static Classification of(boolean multiLabel, Classification.Activation activation,
            Map<String, Float> thresholds, String... labels) {
        Classification c = new Classification(List.of(labels), multiLabel, activation, thresholds, null, null);
        c.validate("test");
        return c;
    }

    @Test
    void singleLabelAppliesSoftmaxAndPicksTheTopLabel() {
        Classification c = of(false, Map.of("spam", 0.5f), "ham", "spam");
        float[] scores = c.scores(new float[] {0f, (float) Math.log(3)});
        assertThat(scores[0]).isCloseTo(0.25f, within(1e-6f));
        assertThat(scores[1]).isCloseTo(0.75f, within(1e-6f));
        Classification.Decision d = c.decide(scores);
        assertThat(d.label()).isEqualTo("spam");
        assertThat(d.score()).isCloseTo(0.75f, within(1e-6f));
        assertThat(d.flagged()).isTrue();
        assertThat(d.flaggedLabels()).containsExactly("spam");
    }

    @Test
    void softmaxIsStableForLargeLogits() {
        float[] scores = of(false, Map.of(), "a", "b").scores(new float[] {1000f, 1000f});
        assertThat(scores).containsExactly(0.5f, 0.5f);
    }

    @Test
    void multiLabelAppliesSigmoidAndFlagsEveryCrossedThreshold() {
        Classification c = of(true, Map.of("toxic", 0.5f, "threat", 0.9f, "insult", 0.5f),
                "toxic", "threat", "insult");
        float[] scores = c.scores(new float[] {2f, 1f, -3f});
        assertThat(scores[0]).isCloseTo(0.8808f, within(1e-4f));
        assertThat(scores[1]).isCloseTo(0.7311f, within(1e-4f));
        Classification.Decision d = c.decide(scores);
        assertThat(d.label()).isEqualTo("toxic");
        assertThat(d.flaggedLabels()).containsExactly("toxic");
    }

    @Test
    void thresholdIsInclusiveAndLabelsWithoutOneNeverFlag() {
        Classification c = of(false, Classification.Activation.NONE, Map.of("spam", 0.6f), "ham", "spam");
        assertThat(c.decide(c.scores(new float[] {0.4f, 0.6f})).flagged()).isTrue();
        assertThat(c.decide(c.scores(new float[] {0.41f, 0.59f})).flagged()).isFalse();
        assertThat(c.decide(new float[] {0.99f, 0.01f}).flagged()).isFalse(); // ham has no threshold
    }

    @Test
    void wrongNumberOfOutputsIsAnError() {
        assertThatThrownBy(() -> of(false, Map.of(), "a", "b").scores(new float[3]))
                .hasMessageContaining("3 columns").hasMessageContaining("2 labels");
    }

    @Test
    void invalidSectionsAreRefused() {
        assertThatThrownBy(() -> of(false, Map.of(), "only")).hasMessageContaining("two labels");
        assertThatThrownBy(() -> of(false, Map.of(), "a", "a")).hasMessageContaining("distinct");
        assertThatThrownBy(() -> of(false, Map.of("c", 0.5f), "a", "b")).hasMessageContaining("'c'");
        assertThatThrownBy(() -> of(false, Map.of("a", 1.5f), "a", "b")).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> of(false, Classification.Activation.SIGMOID, Map.of(), "a", "b"))
                .hasMessageContaining("multiLabel");
    }
}
