package io.github.flinkinfer.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one holder of the state a JVM shares across the subtasks it runs: a TaskManager runs many
 * subtasks in one JVM, and sharing across them is the point (one ONNX session per model and
 * device rather than one per slot, a vocabulary parsed once, a model file fetched once). Each
 * piece is a named {@link #slot} registered with the reason it exists, so {@link #slots()} lists
 * all of them instead of a reader hunting for static fields.
 *
 * <p>Lifecycle: a slot is <b>created</b> by its owner's class initialization (the first use in the
 * JVM), <b>shared</b> by every caller until the JVM exits, and <b>closed</b> by {@link #close()},
 * which runs each slot's release (maps emptied), newest first, and leaves the slot in place, empty,
 * so a later caller starts cold as in a fresh JVM. Nothing calls {@code close()} in a job: the
 * state lives as long as the TaskManager; tests and embedded runs call it to start over. Statics
 * belong to a class loader: with the jar in Flink's {@code lib/} that is one per TaskManager JVM,
 * with a job's user-code class loader one per job in each TaskManager.
 *
 * <pre>{@code
 * private static final Map<String, Object> FETCHING = JvmShared.slot("files.fetching",
 *         "one fetch per file at a time in this JVM", ConcurrentHashMap::new, Map::clear);
 * }</pre>
 */
public final class JvmShared {
    private static final Map<String, Slot<?>> SLOTS = new LinkedHashMap<>();

    private record Slot<T>(T value, String why, Consumer<? super T> release) {
        void close() {
            if (release != null) {
                release.accept(value);
            }
        }
    }

    private JvmShared() {}

    /**
     * This JVM's value of the slot {@code name}: created by {@code create} on the first call,
     * the same value on every later one.
     *
     * @param why the reason it is shared per JVM, listed by {@link #slots()}
     * @param release empties the value on {@link #close()}; null when there is nothing to release
     *     (the value cleans up after its own users, or cannot be undone, as a loaded native library)
     */
    @SuppressWarnings("unchecked")
    public static synchronized <T> T slot(String name, String why, Supplier<T> create, Consumer<? super T> release) {
        return (T) SLOTS.computeIfAbsent(name, k -> new Slot<>(create.get(), why, release)).value();
    }

    /** Every slot created in this JVM so far, by name, with the reason it is shared. */
    public static synchronized Map<String, String> slots() {
        Map<String, String> why = new LinkedHashMap<>();
        SLOTS.forEach((name, slot) -> why.put(name, slot.why()));
        return why;
    }

    /** Releases what every slot holds, newest slot first; the slots stay, empty, for later callers. */
    public static synchronized void close() {
        List<Slot<?>> newestFirst = new ArrayList<>(SLOTS.values());
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            newestFirst.get(i).close();
        }
    }
}
