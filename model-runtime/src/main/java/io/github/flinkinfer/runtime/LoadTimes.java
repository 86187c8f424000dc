package io.github.flinkinfer.runtime;

/**
 * Where a model load's time went, so a slow cold start can be pinned on one phase rather than
 * guessed: reading the model bytes with their sha256, creating the ONNX Runtime session (graph
 * optimization included) and the warm-up batch. A user that reused a shared session paid none of
 * them (all 0).
 *
 * @param readMillis reading the model file(s) and checking their sha256
 * @param sessionMillis ONNX Runtime session creation, graph optimization included
 * @param warmUpMillis the dummy warm-up batch
 * @param graphCache what the optimized-graph cache did: {@code off}, {@code hit}, {@code miss}; or
 *     {@code shared}: the user reused a session another user of its JVM loaded ({@link #SHARED})
 * @param prepared the session was created ahead, while the embedded cluster started ({@link
 *     PreparedSessions}): read and session times were spent then, not while the subtask opened
 */
public record LoadTimes(long readMillis, long sessionMillis, long warmUpMillis, String graphCache,
        boolean prepared) {
    /** Nothing measured: a runtime that does not report phases. */
    public static final LoadTimes NONE = new LoadTimes(0, 0, 0, "off", false);

    /** A reused shared session: another user of the JVM paid its load, so nothing here. */
    public static final LoadTimes SHARED = new LoadTimes(0, 0, 0, "shared", false);

    public LoadTimes withWarmUp(long millis) {
        return new LoadTimes(readMillis, sessionMillis, millis, graphCache, prepared);
    }

    public LoadTimes asPrepared() {
        return new LoadTimes(readMillis, sessionMillis, warmUpMillis, graphCache, true);
    }
}
