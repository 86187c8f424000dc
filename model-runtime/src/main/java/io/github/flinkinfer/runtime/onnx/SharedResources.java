package io.github.flinkinfer.runtime.onnx;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A reference-counted registry: the first {@link #acquire} of a key loads the value, later ones
 * share it, and the {@link Lease#close() release} of the last user closes it. Used for ONNX
 * Runtime sessions, so the slots of a TaskManager that run the same model on the same device
 * load it once ({@link OnnxModel}), and for native tokenizers ({@code TextTokenizer}). Loads of different keys run in parallel; users of one key wait
 * for its single load. A failed load is not cached: the next user tries again.
 *
 * <pre>{@code
 * try (SharedResources.Lease<OrtSession> lease = registry.acquire(key, () -> createSession())) {
 *     lease.value().run(inputs); // thread-safe; per-user buffers stay with the user
 * }
 * }</pre>
 */
public final class SharedResources<K, V extends AutoCloseable> {
    private final Map<K, Entry<V>> entries = new HashMap<>();
    private final AtomicLong loads = new AtomicLong();

    /** One user's hold on a shared value; close it exactly once (later closes are ignored). */
    public static final class Lease<V extends AutoCloseable> implements AutoCloseable {
        private final Runnable release;
        private final Entry<V> entry;
        private final boolean loadedHere;
        private boolean closed;

        private Lease(Entry<V> entry, boolean loadedHere, Runnable release) {
            this.entry = entry;
            this.loadedHere = loadedHere;
            this.release = release;
        }

        public V value() {
            return entry.value;
        }

        /** True for the user whose acquire loaded the value (it pays the load time). */
        public boolean loadedHere() {
            return loadedHere;
        }

        /**
         * Runs {@code warmUp} if no user of this value has run it yet; the others wait until it
         * is done. Returns whether it ran here.
         */
        public boolean warmUpOnce(Runnable warmUp) {
            synchronized (entry) {
                if (entry.warm) {
                    return false;
                }
                warmUp.run();
                entry.warm = true;
                return true;
            }
        }

        /** Users of the value now, this one included (for logs). */
        public int users() {
            return entry.users;
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                release.run();
            }
        }
    }

    private static final class Entry<V> {
        volatile int users; // written under the registry's lock
        V value; // guarded by the entry until loaded
        boolean warm; // guarded by the entry
    }

    /** Returns a lease on the value of {@code key}, loading it with {@code loader} if needed. */
    public Lease<V> acquire(K key, Supplier<V> loader) {
        Entry<V> entry;
        synchronized (this) {
            entry = entries.computeIfAbsent(key, k -> new Entry<>());
            entry.users++;
        }
        boolean loadedHere = false;
        try {
            synchronized (entry) {
                if (entry.value == null) {
                    entry.value = loader.get();
                    loads.incrementAndGet();
                    loadedHere = true;
                }
            }
        } catch (RuntimeException | Error e) {
            release(key, entry);
            throw e;
        }
        Entry<V> held = entry;
        return new Lease<>(entry, loadedHere, () -> release(key, held));
    }

    private void release(K key, Entry<V> entry) {
        synchronized (this) {
            if (--entry.users > 0) {
                return;
            }
            entries.remove(key, entry);
        }
        synchronized (entry) {
            V value = entry.value;
            entry.value = null;
            if (value != null) {
                try {
                    value.close();
                } catch (Exception e) {
                    throw new IllegalStateException("Cannot close shared " + key, e);
                }
            }
        }
    }

    /** Values loaded since this registry was created (a second user of a key adds none). */
    public long loads() {
        return loads.get();
    }

    /** Keys with at least one user. */
    public synchronized int size() {
        return entries.size();
    }
}
