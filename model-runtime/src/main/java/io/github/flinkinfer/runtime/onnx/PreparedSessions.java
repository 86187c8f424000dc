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
import java.util.function.Supplier;

/**
 * ONNX Runtime sessions created ahead of the model loads that will ask for them: a driver that
 * runs its own embedded Flink cluster knows the model and the session settings before it
 * submits, so it creates the subtasks' sessions on a background thread while the cluster starts,
 * and each subtask's {@link OnnxModel} load in the same JVM takes one instead of creating its own.
 * A session is taken at most once; the ones nobody took are closed with the {@link Batch}. The
 * same checks apply as to a load in the subtask (the sha256 of the model bytes, or the
 * optimized-graph cache keyed by it).
 *
 * <pre>{@code
 * try (PreparedSessions.Batch ahead = PreparedSessions.prepare(card, options, parallelism)) {
 *     env.execute(); // each subtask's OnnxModel.load(card, options) takes one of them
 * }
 * }</pre>
 */
public final class PreparedSessions {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PreparedSessions.class);
    private static final Map<OnnxModel.SessionKey, Deque<CompletableFuture<OnnxModel.SharedSession>>>
            WAITING = JvmShared.slot("onnx.prepared-sessions",
                    "sessions created ahead of the model loads that take them, by the driver of an embedded run",
                    HashMap::new, null); // a Batch closes the sessions nobody took

    private PreparedSessions() {}

    /**
     * Sessions prepared by one {@link #prepare} call; closing it closes those nobody took, waiting
     * for any still being created.
     */
    public static final class Batch implements AutoCloseable {
        private final OnnxModel.SessionKey key;
        private final List<CompletableFuture<OnnxModel.SharedSession>> sessions;
        private final CompletableFuture<Void> verified = new CompletableFuture<>();

        private Batch(OnnxModel.SessionKey key, List<CompletableFuture<OnnxModel.SharedSession>> sessions) {
            this.key = key;
            this.sessions = sessions;
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

        /** Sessions of this batch not taken yet. */
        public int untaken() {
            synchronized (WAITING) {
                Deque<CompletableFuture<OnnxModel.SharedSession>> queue = WAITING.get(key);
                return queue == null ? 0 : (int) sessions.stream().filter(queue::contains).count();
            }
        }

        @Override
        public void close() {
            List<CompletableFuture<OnnxModel.SharedSession>> untaken = new ArrayList<>();
            synchronized (WAITING) {
                Deque<CompletableFuture<OnnxModel.SharedSession>> queue = WAITING.get(key);
                if (queue != null) {
                    for (CompletableFuture<OnnxModel.SharedSession> s : sessions) {
                        if (queue.remove(s)) {
                            untaken.add(s);
                        }
                    }
                    if (queue.isEmpty()) {
                        WAITING.remove(key);
                    }
                }
            }
            for (CompletableFuture<OnnxModel.SharedSession> s : untaken) {
                // wait for a creation still running: native work must not outlive the batch (a JVM
                // exiting under it crashes in ONNX Runtime)
                try {
                    closeQuietly(s.join());
                } catch (CompletionException failed) {
                    // nothing was created
                }
            }
        }
    }

    /**
     * Starts creating the sessions {@code subtasks} loads of {@code model} with {@code options}
     * will ask for: one each, or one for all when the options share sessions. One after the other,
     * on one daemon thread, so they do not fight the cluster start for every core.
     */
    public static Batch prepare(ModelCard model, RuntimeOptions options, int subtasks) {
        OrtSessions.useNatives(options); // here, before anything else in this JVM loads ORT from the jar
        ModelCard card = model.base != null ? model.base : model; // a classifier head runs on its base's session
        int count = options.sharesSession() ? 1 : subtasks;
        OnnxModel.SessionKey key = OnnxModel.SessionKey.of(card, options);
        List<CompletableFuture<OnnxModel.SharedSession>> sessions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sessions.add(new CompletableFuture<>());
        }
        synchronized (WAITING) {
            WAITING.computeIfAbsent(key, k -> new ArrayDeque<>()).addAll(sessions);
        }
        Batch batch = new Batch(key, sessions);
        Thread creator = new Thread(() -> {
            for (CompletableFuture<OnnxModel.SharedSession> s : sessions) {
                try {
                    s.complete(OnnxModel.createSession(card, options, () -> batch.verified.complete(null)).prepared());
                } catch (RuntimeException | Error e) {
                    batch.verified.completeExceptionally(e); // no-op once the bytes were verified
                    s.completeExceptionally(e);
                }
            }
        }, "prepare-session-" + card.id());
        creator.setDaemon(true);
        creator.start();
        LOG.info("Preparing {} session(s) of {} on {} ahead of the subtasks", count, card.id(), options.device());
        return batch;
    }

    /**
     * A prepared session of {@code key} (waiting for its creation if it is still running), else
     * one made by {@code create}. A prepared session whose creation failed is not retried here:
     * {@code create} runs instead, so the subtask reports its own error (logged at INFO only: the
     * subtask's own load fails the same way and is reported once, where the run's error is; a
     * warning per subtask printed a refused model's checksum three times); a device this node
     * cannot offer fails the same way here, so its error is the subtask's as it is.
     */
    static OnnxModel.SharedSession takeOr(OnnxModel.SessionKey key, Supplier<OnnxModel.SharedSession> create) {
        CompletableFuture<OnnxModel.SharedSession> prepared;
        synchronized (WAITING) {
            Deque<CompletableFuture<OnnxModel.SharedSession>> queue = WAITING.get(key);
            prepared = queue == null ? null : queue.poll();
            if (queue != null && queue.isEmpty()) {
                WAITING.remove(key);
            }
        }
        if (prepared != null) {
            try {
                return prepared.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof DeviceUnavailableException unavailable) {
                    throw unavailable;
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
