package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import java.util.function.Consumer;

/**
 * Runs batches through the model, on the task thread or beside it, and hands each finished one
 * to a sink in the order the batches were submitted, always on the task thread. The operator
 * sees one interface whether or not model calls overlap with reading and batching.
 */
interface BatchExecutor {

    /** Starts (or, when not overlapped, runs and hands on) one batch. */
    void submit(Batch<TokenizedDocument> batch);

    /** Hands on the finished batches in order; with {@code all}, waits for every one in flight. */
    void emitFinished(boolean all);

    /** Stops; returns false when a model call is still running (its session must stay open). */
    boolean shutdown() throws InterruptedException;

    /** Runs each batch on the calling thread, handing it on at once. */
    static BatchExecutor direct(BisectingRunner runner, Consumer<BatchRun> sink) {
        return new DirectBatchExecutor(runner, sink);
    }

    /** Runs batches on one thread named {@code threadName}, at most {@code inFlight} ahead. */
    static BatchExecutor overlapped(BisectingRunner runner, Consumer<BatchRun> sink, String threadName,
            int inFlight) {
        return new OverlappedBatchExecutor(runner, sink, threadName, inFlight);
    }
}
