package io.github.flinkinfer.operators.kinds;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The row kinds registry and each kind's values of one output row, in its columns' order. */
class RowKindsTest {
    @Test
    void registersOneRowKindPerModelTask() {
        assertThat(RowKinds.all()).extracting(RowKind::task)
                .containsExactly(ModelTask.EMBEDDING, ModelTask.CLASSIFICATION);
        assertThat(RowKinds.of(ModelTask.EMBEDDING)).isInstanceOf(EmbeddingRows.class);
        assertThat(RowKinds.of(ModelTask.CLASSIFICATION)).isInstanceOf(ClassificationRows.class);
    }

    @Test
    void embeddingRowIsItsVector() {
        RowKind rows = RowKinds.of(ModelTask.EMBEDDING);
        float[] vector = {0.5f, -1f};

        assertThat(rows.columns()).extracting(ResultColumn::toString).containsExactly("embedding ARRAY<FLOAT>");
        assertThat(rows.values(vector, null)).containsExactly((Object) vector);
    }

    @Test
    void classificationRowIsTheCardsDecision() {
        RowKind rows = RowKinds.of(ModelTask.CLASSIFICATION);
        Classification c = new Classification(List.of("ok", "toxic"), false, Classification.Activation.NONE,
                Map.of("toxic", 0.5f), null, null);
        float[] scores = {0.2f, 0.8f};

        assertThat(rows.columns()).extracting(ResultColumn::name)
                .containsExactly("label", "score", "scores", "flagged");
        assertThat(rows.values(scores, c)).containsExactly("toxic", 0.8f, scores, true);
    }
}
