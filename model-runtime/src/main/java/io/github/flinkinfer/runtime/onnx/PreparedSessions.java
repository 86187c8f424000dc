package io.github.flinkinfer.runtime.onnx;

import io.github.flinkinfer.runtime.JvmShared;
import io.github.flinkinfer.runtime.DeviceUnavailableException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * ONNX Runtime sessions created ahead of the model loads that will ask for them: a driver that
 * runs its own embedded Flink cluster knows the model and the session settings before it
 * submits, so it starts creating the subtasks' sessions on a background thread while the cluster
 * starts, and each subtask's {@link OnnxModel} load in the same JVM takes one instead of creating
 * its own. A session is taken at most once; the ones nobody took are closed with the {@link
 * Batch}. The same checks apply as to a load in the subtask (the sha256 of the model bytes, or the
 * optimized-graph cache keyed by it).
 *
 * <p>The background thread creates them one after the other, so they do not fight the cluster
 * start for every core. A load that takes a session whose creation has not started yet creates it
 * itself, on the subtask's thread, instead of waiting for its turn: the loads of P subtasks then
 * create their sessions side by side, as they would without preparation. (Waiting for a single
 * creator made the last of 16 MiniLM subtasks wait 8.9 s for its session on 2 cores, about 0.55 s
 * per session: docs/benchmarks/prepared-sessions-2026-12-06.md.)
 *
 * <pre>{@code
 * try (PreparedSessions.Batch ahead = PreparedSessions.prepare(card, options, parallelism)) {
 *     env.execute(); // each subtask's OnnxModel.load(card, options) takes one of them
 * }
 * }</pre>
 */
public final class PreparedSessions {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PreparedSessions.class);
    private static final Map<OnnxModel.SessionKey, Deque<Prepared>> WAITING = JvmShared.slot(
            "onnx.prepared-sessions",
            "sessions created ahead of the model loads that take them, by the driver of an embedded run",
            HashMap::new, null); // a Batch closes the sessions nobody took

    private PreparedSessions() {}

    /**
     * One session of a batch: created once, by the batch's thread or by the load that takes it
     * first, whichever claims it first.
     */
    private static final class Prepared {
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CompletableFuture<OnnxModel.SharedSession> session = new CompletableFuture<>();
        private final Supplier<OnnxModel.SharedSession> create;

        private Prepared(Supplier<OnnxModel.SharedSession> create) {
            this.create = create;
        }

        /**
         * Creates the session here if nobody has started it, marked as prepared when {@code
         * ahead} (the batch's thread, not the load that takes it); true if this call did.
         */
        boolean createIfUnclaimed(boolean ahead) {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            try {
                OnnxModel.SharedSession created = create.get();
                session.complete(ahead ? created.prepared() : created);
            } catch (RuntimeException | Error e) {
                session.completeExceptionally(e);
            }
            return true;
        }

        /** Makes sure nobody creates it later; true if nobody had started it. */
        boolean cancelIfUnclaimed() {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            session.cancel(false);
            return true;
        }
    }

    /**
     * Sessions prepared by one {@link #prepare} call; closing it closes those nobody took, waiting
     * for any still being created.
     */
    public static final class Batch implements AutoCloseable {
        private final OnnxModel.SessionKey key;
        private final List<Prepared> sessions = new ArrayList<>();
        private final CompletableFuture<Void> verified = new CompletableFuture<>();

        private Batch(OnnxModel.SessionKey key) {
            this.key = key;
        }

        /**
         * Waits until the first session's model bytes (the original, or its optimized-graph cache
         * entry) have passed their sha256 check, and throws the {@link ModelIntegrityException}
         * (or the read error) when they did not: a driver that prepares sessions checks its model
         * this way instead of reading and hashing the graph a second time. A failure after the
         * check (creating the session itself) is left to the subtask that takes it.
         */
        public void awaitVerified() {
            try {
                verified.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }

        /** Waits until every session of this batch is created, or failed (tests: so loads take them ready). */
        void awaitCreated() {
            for (Prepared s : sessions) {
                s.session.exceptionally(e -> null).join();
            }
        }

        /** Sessions of this batch not taken yet. */
        public int untaken() {
            synchronized (WAITING) {
                Deque<Prepared> queue = WAITING.get(key);
                return queue == null ? 0 : (int) sessions.stream().filter(queue::contains).count();
            }
        }

        @Override
        public void close() {
            List<Prepared> untaken = new ArrayList<>();
            synchronized (WAITING) {
                Deque<Prepared> queue = WAITING.get(key);
                if (queue != null) {
                    for (Prepared s : sessions) {
                        if (queue.remove(s)) {
                            untaken.add(s);
                        }
                    }
                    if (queue.isEmpty()) {
                        WAITING.remove(key);
                    }
                }
            }
            verified.cancel(false); // no-op once checked; else nobody will check it now
            for (Prepared s : untaken) {
                if (s.cancelIfUnclaimed()) {
                    continue; // never started: nothing to close
                }
                // wait for a creation still running: native work must not outlive the batch (a JVM
                // exiting under it crashes in ONNX Runtime)
                try {
                    closeQuietly(s.session.join());
                } catch (CompletionException | java.util.concurrent.CancellationException failed) {
                    // nothing was created
                }
            }
        }
    }

    /**
     * Starts creating the sessions {@code subtasks} loads of {@code model} with {@code options}
     * will ask for: one each, or one for all when the options share sessions.
     */
    public static Batch prepare(ModelCard model, RuntimeOptions options, int subtasks) {
        return prepare(model, options, subtasks, true);
    }

    /** {@link #prepare}, with no thread creating ahead when not {@code ahead}: each load creates its own (tests). */
    static Batch prepare(ModelCard model, RuntimeOptions options, int subtasks, boolean ahead) {
        OrtSessions.useNatives(options); // here, before anything else in this JVM loads ORT from the jar
        ModelCard card = model.base != null ? model.base : model; // a classifier head runs on its base's session
        int count = options.sharesSession() ? 1 : subtasks;
        OnnxModel.SessionKey key = OnnxModel.SessionKey.of(card, options);
        Batch batch = new Batch(key);
        for (int i = 0; i < count; i++) {
            batch.sessions.add(new Prepared(() -> {
                try {
                    return OnnxModel.createSession(card, options, () -> batch.verified.complete(null));
                } catch (RuntimeException | Error e) {
                    batch.verified.completeExceptionally(e); // no-op once the bytes were verified
                    throw e;
                }
            }));
        }
        synchronized (WAITING) {
            WAITING.computeIfAbsent(key, k -> new ArrayDeque<>()).addAll(batch.sessions);
        }
        if (!ahead) {
            return batch;
        }
        Thread creator = new Thread(() -> {
            for (Prepared s : batch.sessions) {
                s.createIfUnclaimed(true);
            }
        }, "prepare-session-" + card.id());
        creator.setDaemon(true);
        creator.start();
        LOG.info("Preparing {} session(s) of {} on {} ahead of the subtasks", count, card.id(), options.device());
        return batch;
    }

    /**
     * A prepared session of {@code key} (created here if its creation has not started, else waited
     * for), else one made by {@code create}. A prepared session whose creation failed is not
     * retried here: {@code create} runs instead, so the subtask reports its own error (logged at
     * INFO only: the subtask's own load fails the same way and is reported once, where the run's
     * error is; a warning per subtask printed a refused model's checksum three times); a device
     * this node cannot offer fails the same way here, so its error is the subtask's as it is.
     */
    static OnnxModel.SharedSession takeOr(OnnxModel.SessionKey key, Supplier<OnnxModel.SharedSession> create) {
        Prepared prepared;
        synchronized (WAITING) {
            Deque<Prepared> queue = WAITING.get(key);
            prepared = queue == null ? null : queue.poll();
            if (queue != null && queue.isEmpty()) {
                WAITING.remove(key);
            }
        }
        if (prepared != null) {
            boolean here = prepared.createIfUnclaimed(false); // its turn has not come: create it here rather than wait
            try {
                return prepared.session.join();
            } catch (CompletionException e) {
                if (here || e.getCause() instanceof DeviceUnavailableException) {
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw e.getCause() instanceof RuntimeException r ? r : e; // this load's own error
                }
                LOG.info("Prepared session of {} failed ({}); creating one here", key.modelId(),
                        e.getCause() == null ? e.getMessage() : e.getCause().getMessage());
            }
        }
        return create.get();
    }

    private static void closeQuietly(OnnxModel.SharedSession s) {
        try {
            s.close();
        } catch (Exception e) {
            LOG.warn("Cannot close an untaken prepared session: {}", e.getMessage());
        }
    }
}
