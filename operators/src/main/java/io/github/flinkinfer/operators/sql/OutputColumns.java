package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.kinds.ResultColumn;
import io.github.flinkinfer.operators.kinds.RowKind;
import io.github.flinkinfer.operators.kinds.RowKinds;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.io.Serializable;
import java.util.ArrayList;
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
 * The model's {@code OUTPUT (...)} columns, chosen by name from its kind's value columns ({@link
 * RowKind#columns()}) and the columns every kind has ({@code token_count}, {@code truncated},
 * {@code error}), and how one result becomes a row. A failed input yields a row whose value
 * columns are NULL and whose {@code error} column (if declared) holds {@code stage/reason}, so
 * every input row appears exactly once.
 */
final class OutputColumns implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ResultColumn TOKEN_COUNT = new ResultColumn("token_count", ResultColumn.Type.INT);
    private static final ResultColumn TRUNCATED = new ResultColumn("truncated", ResultColumn.Type.BOOLEAN);
    private static final ResultColumn ERROR = new ResultColumn("error", ResultColumn.Type.STRING);
    /** The columns of any kind, after the kind's own. */
    private static final List<ResultColumn> COMMON = List.of(TOKEN_COUNT, TRUNCATED, ERROR);

    private final RowKind rows;
    /** Each declared column: its index in the kind's values, or {@code -1 - i} for {@code COMMON.get(i)}. */
    private final int[] slots;
    /** Labels and thresholds of a classification model; null for embeddings. */
    private final Classification classification;

    private OutputColumns(RowKind rows, int[] slots, Classification classification) {
        this.rows = rows;
        this.slots = slots;
        this.classification = classification;
    }

    /**
     * Validates the declared output schema against the model's kind; {@code labels}, when not
     * empty, renames a classifier's labels.
     */
    static OutputColumns of(ResolvedSchema output, ModelCard card, List<String> labels) {
        ModelTask task = card.task;
        List<RowKind> kinds = RowKinds.all();
        RowKind rows = kinds.stream().filter(k -> k.task() == task).findFirst().orElse(null);
        List<ResultColumn> own = rows == null ? List.of() : rows.columns();
        int[] slots = new int[output.getColumns().size()];
        boolean hasValue = false;
        int i = 0;
        for (Column c : output.getColumns()) {
            ResultColumn column = byName(c.getName(), own, kinds, task);
            int slot = own.indexOf(column);
            if (!accepts(column.type(), c.getDataType().getLogicalType())) {
                throw new ValidationException("Output column '" + c.getName() + "' must be "
                        + column.type().sql + ", not " + c.getDataType());
            }
            hasValue |= slot >= 0;
            slots[i++] = slot >= 0 ? slot : -1 - COMMON.indexOf(column);
        }
        if (!hasValue) {
            throw new ValidationException("The model's OUTPUT declares no result column. "
                    + allowed(task, own));
        }
        Classification c = card.classification;
        if (c != null && !labels.isEmpty()) {
            if (labels.size() != c.labels.size()) {
                throw new ValidationException("'labels' names " + labels.size() + " labels; model "
                        + card.id() + " has " + c.labels.size() + " " + c.labels);
            }
            Map<String, Float> thresholds = new LinkedHashMap<>();
            for (int l = 0; l < labels.size(); l++) {
                Float t = c.thresholds.get(c.labels.get(l));
                if (t != null) {
                    thresholds.put(labels.get(l), t);
                }
            }
            c = new Classification(labels, c.multiLabel, c.activation, thresholds, null, null);
        }
        return new OutputColumns(rows, slots, task == ModelTask.CLASSIFICATION ? c : null);
    }

    /** The column called {@code name}: the model kind's, a common one, or another kind's (refused). */
    private static ResultColumn byName(String name, List<ResultColumn> own, List<RowKind> kinds,
            ModelTask task) {
        for (ResultColumn c : own) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        for (ResultColumn c : COMMON) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        for (RowKind other : kinds) {
            for (ResultColumn c : other.columns()) {
                if (c.name().equalsIgnoreCase(name)) {
                    throw new ValidationException("Output column '" + name + "' needs a "
                            + lower(other.task()) + " model; this one is " + lower(task) + ". "
                            + allowed(task, own));
                }
            }
        }
        throw new ValidationException("Unknown output column '" + name + "'. " + allowed(task, own));
    }

    private static String allowed(ModelTask task, List<ResultColumn> own) {
        List<ResultColumn> names = new ArrayList<>(own);
        names.addAll(COMMON);
        return "Allowed for a " + lower(task) + " model: " + names;
    }

    private static String lower(ModelTask task) {
        return task.name().toLowerCase(Locale.ROOT);
    }

    private static boolean accepts(ResultColumn.Type type, LogicalType t) {
        return switch (type) {
            case FLOAT_ARRAY -> t instanceof ArrayType a
                    && a.getElementType().getTypeRoot() == LogicalTypeRoot.FLOAT;
            case STRING -> t.is(LogicalTypeFamily.CHARACTER_STRING);
            case FLOAT -> t.getTypeRoot() == LogicalTypeRoot.FLOAT;
            case INT -> t.getTypeRoot() == LogicalTypeRoot.INTEGER;
            case BOOLEAN -> t.getTypeRoot() == LogicalTypeRoot.BOOLEAN;
        };
    }

    /** The row for a successful input. */
    RowData success(float[] vector, int tokenCount, boolean truncated) {
        GenericRowData row = new GenericRowData(slots.length);
        Object[] values = rows.values(vector, classification);
        for (int i = 0; i < slots.length; i++) {
            int slot = slots[i];
            row.setField(i, slot >= 0 ? internal(rows.columns().get(slot).type(), values[slot])
                    : switch (-1 - slot) {
                        case 0 -> tokenCount;
                        case 1 -> truncated;
                        default -> null; // error
                    });
        }
        return row;
    }

    /** A kind's plain Java value as Flink's internal row data. */
    private static Object internal(ResultColumn.Type type, Object value) {
        return switch (type) {
            case FLOAT_ARRAY -> new GenericArrayData((float[]) value);
            case STRING -> StringData.fromString((String) value);
            default -> value;
        };
    }

    /** The row for a failed input: NULL values, {@code stage/reason} in {@code error}. */
    RowData failure(String stage, String reason, int tokenCount) {
        return failure(stage + "/" + reason, tokenCount);
    }

    RowData failure(ErrorReason reason, int tokenCount) {
        return failure(reason.qualified(), tokenCount);
    }

    private RowData failure(String error, int tokenCount) {
        GenericRowData row = new GenericRowData(slots.length);
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == -1 - COMMON.indexOf(ERROR)) {
                row.setField(i, StringData.fromString(error));
            } else if (slots[i] == -1 - COMMON.indexOf(TOKEN_COUNT) && tokenCount >= 0) {
                row.setField(i, tokenCount);
            }
        }
        return row;
    }

    /** The row kind this model's rows come from (its tokenization too). */
    RowKind rows() {
        return rows;
    }

    /** The declared columns in upper case, e.g. {@code [EMBEDDING, ERROR]}. */
    @Override
    public String toString() {
        List<String> names = new ArrayList<>();
        for (int slot : slots) {
            names.add((slot >= 0 ? rows.columns().get(slot) : COMMON.get(-1 - slot)).name()
                    .toUpperCase(Locale.ROOT));
        }
        return names.toString();
    }
}
