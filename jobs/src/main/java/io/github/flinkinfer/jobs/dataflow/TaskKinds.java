package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The registry of {@link TaskKind}s: every kind named in a {@code
 * META-INF/services/io.github.flinkinfer.jobs.dataflow.TaskKind} file on the classpath (the jar's
 * lists {@code embed} and {@code moderate}; a test or a plugin jar adds its own), so a new kind is
 * one class plus one line there, and nothing here or in the pipeline changes. Read on the driver,
 * on each call (no JVM-wide state).
 *
 * <pre>{@code
 * TaskKind<?> embed = TaskKinds.named("embed");
 * List<TaskKind<?>> classifiers = TaskKinds.forModel(ModelTask.CLASSIFICATION);
 * }</pre>
 */
public final class TaskKinds {
    private TaskKinds() {}

    /** Every registered kind, by name; two kinds with one name are refused. */
    public static List<TaskKind<?>> all() {
        TreeMap<String, TaskKind<?>> byName = new TreeMap<>();
        for (TaskKind<?> kind : ServiceLoader.load(TaskKind.class, TaskKind.class.getClassLoader())) {
            TaskKind<?> other = byName.putIfAbsent(kind.name(), kind);
            if (other != null && other.getClass() != kind.getClass()) {
                throw new IllegalStateException("Task kind '" + kind.name() + "' is registered twice: "
                        + other.getClass().getName() + " and " + kind.getClass().getName());
            }
        }
        return List.copyOf(byName.values());
    }

    /** The kind called {@code name}; IllegalArgumentException naming the known ones if none is. */
    public static TaskKind<?> named(String name) {
        List<String> known = new ArrayList<>();
        for (TaskKind<?> kind : all()) {
            if (kind.name().equals(name)) {
                return kind;
            }
            known.add(kind.name());
        }
        throw new IllegalArgumentException("No task kind '" + name + "'; known: " + known);
    }

    /** The kinds that run a model of {@code task}, by name. */
    public static List<TaskKind<?>> forModel(ModelTask task) {
        return all().stream().filter(k -> k.modelTask() == task).toList();
    }
}
