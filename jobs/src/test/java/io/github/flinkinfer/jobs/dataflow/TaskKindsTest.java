package io.github.flinkinfer.jobs.dataflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.moderation.ModerationTask;
import io.github.flinkinfer.operators.kinds.ClassificationRows;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.junit.jupiter.api.Test;

/**
 * The registry finds the built-in kinds by name and by model task, each with its model task's row
 * half, and names the known ones when asked for another.
 */
class TaskKindsTest {
    @Test
    void findsTheBuiltInKindsByName() {
        assertThat(TaskKinds.named("embed")).isInstanceOf(EmbeddingTask.class);
        assertThat(TaskKinds.named("moderate")).isInstanceOf(ModerationTask.class);
    }

    @Test
    void findsTheKindsOfAModelTask() {
        assertThat(TaskKinds.forModel(ModelTask.CLASSIFICATION)).extracting(TaskKind::name).containsExactly("moderate");
        assertThat(TaskKinds.forModel(ModelTask.EMBEDDING)).extracting(TaskKind::name).contains("embed");
    }

    @Test
    void everyKindHasTheRowHalfOfItsModelTaskSharedWithSql() {
        assertThat(TaskKinds.all()).allSatisfy(kind -> assertThat(kind.rows().task())
                .as(kind.name()).isEqualTo(kind.modelTask()));
        assertThat(TaskKinds.named("moderate").rows()).isInstanceOf(ClassificationRows.class);
    }

    @Test
    void anUnknownNameIsRefusedWithTheKnownOnes() {
        assertThatThrownBy(() -> TaskKinds.named("rerank"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("No task kind 'rerank'; known: [embed, moderate");
    }
}
