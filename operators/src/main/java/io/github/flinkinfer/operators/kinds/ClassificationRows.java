package io.github.flinkinfer.operators.kinds;

import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.List;

/**
 * A classifier's row: the card's decision on its scores ({@link Classification#decide}, the one
 * the {@code moderate} job's verdicts use): top label, its score, every score, flagged.
 */
public final class ClassificationRows implements RowKind {
    private static final long serialVersionUID = 1L;
    private static final List<ResultColumn> COLUMNS = List.of(
            new ResultColumn("label", ResultColumn.Type.STRING),
            new ResultColumn("score", ResultColumn.Type.FLOAT),
            new ResultColumn("scores", ResultColumn.Type.FLOAT_ARRAY),
            new ResultColumn("flagged", ResultColumn.Type.BOOLEAN));

    @Override
    public ModelTask task() {
        return ModelTask.CLASSIFICATION;
    }

    @Override
    public List<ResultColumn> columns() {
        return COLUMNS;
    }

    @Override
    public Object[] values(float[] output, Classification classification) {
        Classification.Decision d = classification.decide(output);
        return new Object[] {d.label(), d.score(), output, d.flagged()};
    }
}
