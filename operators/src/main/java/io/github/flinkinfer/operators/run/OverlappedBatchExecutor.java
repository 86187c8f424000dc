package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs model calls on one inference thread while the task thread goes on reading, tokenizing
 * and batching; finished batches are handed on in submission order on the task thread. A full
 * hand-off ({@code inFlight} batches waiting) blocks the task thread: backpressure, not
 * buffering. The operator drains it before each checkpoint barrier and at end of input.
 */
final class OverlappedBatchExecutor implements BatchExecutor {
    /** A batch on the inference thread: its outcome and when the model call started. */
    private record Pending(Batch<TokenizedDocument> batch, Future<BisectingRunner.Outcome> outcome,
            long[] startedAt) {}

    private final BisectingRunner runner;
    private final Consumer<BatchRun> sink;
    private final int maxInFlight;
    private final ExecutorService thread;
    private final ArrayDeque<Pending> inFlight = new ArrayDeque<>();

    OverlappedBatchExecutor(BisectingRunner runner, Consumer<BatchRun> sink, String threadName,
            int maxInFlight) {
        this.runner = runner;
        this.sink = sink;
        this.maxInFlight = maxInFlight;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void submit(Batch<TokenizedDocument> batch) {
        long[] startedAt = new long[2];
        inFlight.add(new Pending(batch, thread.submit(() -> {
            startedAt[0] = System.nanoTime();
            startedAt[1] = System.currentTimeMillis();
            return runner.run(batch.items());
        }), startedAt));
        while (inFlight.size() > maxInFlight) {
            emitOldest();
        }
    }

    @Override
    public void emitFinished(boolean all) {
        while (!inFlight.isEmpty() && (all || inFlight.peek().outcome().isDone())) {
            emitOldest();
        }
    }

    private void emitOldest() {
        Pending p = inFlight.poll();
        BisectingRunner.Outcome outcome;
        try {
            outcome = p.outcome().get(); // the Future's happens-before makes startedAt visible
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for a batch", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("Batch failed on the inference thread", e.getCause());
        }
        sink.accept(new BatchRun(p.batch(), outcome, p.startedAt()[0], p.startedAt()[1]));
    }

    /** After end of input nothing is left; on failure, stops waiting after one minute. */
    @Override
    public boolean shutdown() throws InterruptedException {
        thread.shutdownNow();
        return thread.awaitTermination(1, TimeUnit.MINUTES);
    }
}
