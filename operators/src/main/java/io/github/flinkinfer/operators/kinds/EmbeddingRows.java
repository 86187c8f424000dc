package io.github.flinkinfer.operators.kinds;

import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.List;

/** An embedding model's row: its vector, as {@code embedding}. */
public final class EmbeddingRows implements RowKind {
    private static final long serialVersionUID = 1L;
    private static final List<ResultColumn> COLUMNS =
            List.of(new ResultColumn("embedding", ResultColumn.Type.FLOAT_ARRAY));

    @Override
    public ModelTask task() {
        return ModelTask.EMBEDDING;
    }

    @Override
    public List<ResultColumn> columns() {
        return COLUMNS;
    }

    @Override
    public Object[] values(float[] output, Classification classification) {
        return new Object[] {output};
    }
}
