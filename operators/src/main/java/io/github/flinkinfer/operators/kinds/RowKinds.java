package io.github.flinkinfer.operators.kinds;

import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.EnumMap;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The registry of {@link RowKind}s, one per model task: every kind named in a {@code
 * META-INF/services/io.github.flinkinfer.operators.kinds.RowKind} file on the classpath (the
 * operators jar lists embedding and classification). Read on each call (no JVM-wide state).
 *
 * <pre>{@code
 * RowKind rows = RowKinds.of(ModelTask.CLASSIFICATION);
 * }</pre>
 */
public final class RowKinds {
    private RowKinds() {}

    /** Every registered row kind, in model-task order; two for one task are refused. */
    public static List<RowKind> all() {
        EnumMap<ModelTask, RowKind> byTask = new EnumMap<>(ModelTask.class);
        for (RowKind kind : ServiceLoader.load(RowKind.class, RowKind.class.getClassLoader())) {
            RowKind other = byTask.putIfAbsent(kind.task(), kind);
            if (other != null && other.getClass() != kind.getClass()) {
                throw new IllegalStateException("Row kind for " + kind.task() + " is registered twice: "
                        + other.getClass().getName() + " and " + kind.getClass().getName());
            }
        }
        return List.copyOf(byTask.values());
    }

    /** The row kind of {@code task}; IllegalArgumentException when none is registered. */
    public static RowKind of(ModelTask task) {
        for (RowKind kind : all()) {
            if (kind.task() == task) {
                return kind;
            }
        }
        throw new IllegalArgumentException("No row kind for a " + task + " model");
    }
}
