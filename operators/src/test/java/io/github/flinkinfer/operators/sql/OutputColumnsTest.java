package io.github.flinkinfer.operators.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.junit.jupiter.api.Test;

/** SQL's {@code OUTPUT} columns from the model's row kind: the rows, and the exact refusals. */
class OutputColumnsTest {
    private static final ModelCard EMBEDDER = ModelCard.builtIn("all-minilm-l6-v2");
    private static final ModelCard CLASSIFIER = ModelCard.builtIn("spam-assassin-minilm");
    private static final DataType FLOATS = DataTypes.ARRAY(DataTypes.FLOAT());

    @Test
    void embeddingRowsHoldTheVectorAndTheCommonColumns() {
        OutputColumns columns = OutputColumns.of(schema(Column.physical("error", DataTypes.STRING()),
                Column.physical("EMBEDDING", FLOATS), Column.physical("token_count", DataTypes.INT()),
                Column.physical("truncated", DataTypes.BOOLEAN())), EMBEDDER, List.of());

        RowData ok = columns.success(new float[] {1f, 2f}, 7, true);
        RowData failed = columns.failure(ErrorReason.TOO_LONG, 600);

        assertThat(columns).hasToString("[ERROR, EMBEDDING, TOKEN_COUNT, TRUNCATED]");
        assertThat(ok.isNullAt(0)).isTrue();
        assertThat(ok.getArray(1).toFloatArray()).containsExactly(1f, 2f);
        assertThat(ok.getInt(2)).isEqualTo(7);
        assertThat(ok.getBoolean(3)).isTrue();
        assertThat(failed.getString(0)).hasToString("tokenize/too_long");
        assertThat(failed.isNullAt(1)).isTrue();
        assertThat(failed.getInt(2)).isEqualTo(600);
        assertThat(failed.isNullAt(3)).isTrue();
    }

    @Test
    void classificationRowsHoldTheDecisionWithRenamedLabels() {
        OutputColumns columns = OutputColumns.of(schema(Column.physical("label", DataTypes.STRING()),
                Column.physical("score", DataTypes.FLOAT()), Column.physical("scores", FLOATS),
                Column.physical("flagged", DataTypes.BOOLEAN())), CLASSIFIER, List.of("fine", "junk"));

        RowData row = columns.success(new float[] {0.3f, 0.7f}, 5, false);

        assertThat(row.getString(0)).hasToString("junk");
        assertThat(row.getFloat(1)).isEqualTo(0.7f);
        assertThat(row.getArray(2).toFloatArray()).containsExactly(0.3f, 0.7f);
        assertThat(row.getBoolean(3)).isTrue();
    }

    @Test
    void refusesColumnsWithTheSameMessagesAsBefore() {
        assertThatThrownBy(() -> OutputColumns.of(schema(Column.physical("label", DataTypes.STRING())),
                EMBEDDER, List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessage("Output column 'label' needs a classification model; this one is embedding."
                        + " Allowed for a embedding model: [embedding ARRAY<FLOAT>, token_count INT,"
                        + " truncated BOOLEAN, error STRING]");
        assertThatThrownBy(() -> OutputColumns.of(schema(Column.physical("vector", FLOATS)),
                CLASSIFIER, List.of()))
                .hasMessage("Unknown output column 'vector'. Allowed for a classification model: [label"
                        + " STRING, score FLOAT, scores ARRAY<FLOAT>, flagged BOOLEAN, token_count INT,"
                        + " truncated BOOLEAN, error STRING]");
        assertThatThrownBy(() -> OutputColumns.of(schema(Column.physical("score", DataTypes.DOUBLE())),
                CLASSIFIER, List.of()))
                .hasMessage("Output column 'score' must be FLOAT, not DOUBLE");
        assertThatThrownBy(() -> OutputColumns.of(schema(Column.physical("error", DataTypes.STRING())),
                EMBEDDER, List.of()))
                .hasMessageStartingWith("The model's OUTPUT declares no result column. Allowed for a"
                        + " embedding model: [embedding");
        assertThatThrownBy(() -> OutputColumns.of(schema(Column.physical("label", DataTypes.STRING())),
                CLASSIFIER, List.of("one")))
                .hasMessage("'labels' names 1 labels; model " + CLASSIFIER.id() + " has 2 [ham, spam]");
    }

    private static ResolvedSchema schema(Column... columns) {
        return ResolvedSchema.of(columns);
    }
}
