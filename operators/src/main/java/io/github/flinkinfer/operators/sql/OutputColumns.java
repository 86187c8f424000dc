package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * The model's {@code OUTPUT (...)} columns, chosen by name from a fixed set, and how one result
 * becomes a row. A failed input yields a row whose value columns are NULL and whose {@code error}
 * column (if declared) holds {@code stage/reason}, so every input row appears exactly once.
 */
final class OutputColumns implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What a column can hold. */
    enum Kind {
        EMBEDDING("embedding", "ARRAY<FLOAT>", ModelTask.EMBEDDING),
        LABEL("label", "STRING", ModelTask.CLASSIFICATION),
        SCORE("score", "FLOAT", ModelTask.CLASSIFICATION),
        SCORES("scores", "ARRAY<FLOAT>", ModelTask.CLASSIFICATION),
        FLAGGED("flagged", "BOOLEAN", ModelTask.CLASSIFICATION),
        TOKEN_COUNT("token_count", "INT", null),
        TRUNCATED("truncated", "BOOLEAN", null),
        ERROR("error", "STRING", null);

        final String column;
        final String sqlType;
        /** The task this column needs, or null for any. */
        final ModelTask task;

        Kind(String column, String sqlType, ModelTask task) {
            this.column = column;
            this.sqlType = sqlType;
            this.task = task;
        }

        boolean accepts(LogicalType t) {
            return switch (this) {
                case EMBEDDING, SCORES -> t instanceof ArrayType a
                        && a.getElementType().getTypeRoot() == LogicalTypeRoot.FLOAT;
                case LABEL, ERROR -> t.is(LogicalTypeFamily.CHARACTER_STRING);
                case SCORE -> t.getTypeRoot() == LogicalTypeRoot.FLOAT;
                case TOKEN_COUNT -> t.getTypeRoot() == LogicalTypeRoot.INTEGER;
                case TRUNCATED, FLAGGED -> t.getTypeRoot() == LogicalTypeRoot.BOOLEAN;
            };
        }
    }

    private final Kind[] kinds;
    /** Labels and thresholds of a classification model; null for embeddings. */
    private final Classification classification;

    private OutputColumns(Kind[] kinds, Classification classification) {
        this.kinds = kinds;
        this.classification = classification;
    }

    /**
     * Validates the declared output schema against the model's task; {@code labels}, when not
     * empty, renames a classifier's labels.
     */
    static OutputColumns of(ResolvedSchema output, ModelCard card, List<String> labels) {
        ModelTask task = card.task;
        List<Kind> kinds = new ArrayList<>();
        boolean hasValue = false;
        for (Column c : output.getColumns()) {
            Kind kind = byName(c.getName(), task);
            if (kind.task != null && kind.task != task) {
                throw new ValidationException("Output column '" + c.getName() + "' needs a "
                        + kind.task.name().toLowerCase(Locale.ROOT) + " model; this one is "
                        + task.name().toLowerCase(Locale.ROOT) + ". " + allowed(task));
            }
            if (!kind.accepts(c.getDataType().getLogicalType())) {
                throw new ValidationException("Output column '" + c.getName() + "' must be "
                        + kind.sqlType + ", not " + c.getDataType());
            }
            hasValue |= kind.task != null;
            kinds.add(kind);
        }
        if (!hasValue) {
            throw new ValidationException("The model's OUTPUT declares no result column. "
                    + allowed(task));
        }
        Classification c = card.classification;
        if (c != null && !labels.isEmpty()) {
            if (labels.size() != c.labels.size()) {
                throw new ValidationException("'labels' names " + labels.size() + " labels; model "
                        + card.id() + " has " + c.labels.size() + " " + c.labels);
            }
            Map<String, Float> thresholds = new LinkedHashMap<>();
            for (int i = 0; i < labels.size(); i++) {
                Float t = c.thresholds.get(c.labels.get(i));
                if (t != null) {
                    thresholds.put(labels.get(i), t);
                }
            }
            c = new Classification(labels, c.multiLabel, c.activation, thresholds, null, null);
        }
        return new OutputColumns(kinds.toArray(new Kind[0]), task == ModelTask.CLASSIFICATION ? c : null);
    }

    private static Kind byName(String name, ModelTask task) {
        for (Kind k : Kind.values()) {
            if (k.column.equalsIgnoreCase(name)) {
                return k;
            }
        }
        throw new ValidationException("Unknown output column '" + name + "'. " + allowed(task));
    }

    private static String allowed(ModelTask task) {
        List<String> names = new ArrayList<>();
        for (Kind k : Kind.values()) {
            if (k.task == null || k.task == task) {
                names.add(k.column + " " + k.sqlType);
            }
        }
        return "Allowed for a " + task.name().toLowerCase(Locale.ROOT) + " model: " + names;
    }

    /** The row for a successful input. */
    RowData success(float[] vector, int tokenCount, boolean truncated) {
        GenericRowData row = new GenericRowData(kinds.length);
        Classification.Decision d = classification == null ? null : classification.decide(vector);
        for (int i = 0; i < kinds.length; i++) {
            row.setField(i, switch (kinds[i]) {
                case EMBEDDING, SCORES -> new GenericArrayData(vector);
                case LABEL -> StringData.fromString(d.label());
                case SCORE -> d.score();
                case FLAGGED -> d.flagged();
                case TOKEN_COUNT -> tokenCount;
                case TRUNCATED -> truncated;
                case ERROR -> null;
            });
        }
        return row;
    }

    /** The row for a failed input: NULL values, {@code stage/reason} in {@code error}. */
    RowData failure(String stage, String reason, int tokenCount) {
        return failure(stage + "/" + reason, tokenCount);
    }

    RowData failure(io.github.flinkinfer.operators.errors.ErrorReason reason, int tokenCount) {
        return failure(reason.qualified(), tokenCount);
    }

    private RowData failure(String error, int tokenCount) {
        GenericRowData row = new GenericRowData(kinds.length);
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == Kind.ERROR) {
                row.setField(i, StringData.fromString(error));
            } else if (kinds[i] == Kind.TOKEN_COUNT && tokenCount >= 0) {
                row.setField(i, tokenCount);
            }
        }
        return row;
    }

    @Override
    public String toString() {
        return Arrays.toString(kinds);
    }
}
