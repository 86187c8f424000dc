package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.run.BisectingRunner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subtask's batching loop for ML_PREDICT: rows are queued by the task thread (bounded queue:
 * a full queue blocks it, which is backpressure), a worker thread feeds them to a {@link
 * LengthBucketBatcher}, runs ready batches with a {@link BisectingRunner} and completes each
 * row's future. Async lookups have no end-of-input signal, so everything buffered is run when
 * the operator cannot send more (rows in flight reached its capacity), when no row arrived for
 * {@link #QUIET_MILLIS} (input ended or stalled), or when a row waited {@code max-wait}.
 */
final class PredictWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PredictWorker.class);
    /** No new row for this long means the input ended or the operator is waiting for us. */
    static final long QUIET_MILLIS = 20;

    /** A queued row: its tokens and the future ML_PREDICT waits on. */
    record Pending(TokenizedDocument doc, CompletableFuture<Collection<RowData>> future) {
        int tokens() {
            return doc.tokenCount();
        }
    }

    private final BlockingQueue<Pending> queue;
    private final LengthBucketBatcher<Pending> batcher;
    private final BisectingRunner runner;
    private final OutputColumns columns;
    private final int capacity;
    private final int subtask;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private long batches;
    private long rows;
    private long paddedTokens;
    private long realTokens;

    PredictWorker(BisectingRunner runner, BatchingConfig batching, OutputColumns columns,
            int capacity, int subtask) {
        this.runner = runner;
        this.subtask = subtask;
        this.columns = columns;
        this.capacity = capacity;
        this.queue = new ArrayBlockingQueue<>(Math.max(1, capacity));
        this.batcher = new LengthBucketBatcher<>(batching, Pending::tokens);
        this.thread = new Thread(this::loop, "ml-predict-onnx-" + subtask);
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a row; blocks while the queue is full. */
    void submit(Pending p) throws InterruptedException {
        while (!queue.offer(p, 100, TimeUnit.MILLISECONDS)) {
            checkAlive();
        }
        checkAlive();
    }

    private void checkAlive() {
        if (failure != null) {
            throw new IllegalStateException("ML_PREDICT batching worker failed", failure);
        }
    }

    private void loop() {
        List<Pending> arrived = new ArrayList<>();
        try {
            while (running || !queue.isEmpty() || batcher.bufferedCount() > 0) {
                Pending first = queue.poll(QUIET_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    runAll(batcher.flushAll());
                    continue;
                }
                arrived.clear();
                arrived.add(first);
                queue.drainTo(arrived);
                long now = System.nanoTime();
                for (Pending p : arrived) {
                    runAll(batcher.add(p, now));
                }
                if (batcher.bufferedCount() + queue.size() >= capacity) {
                    runAll(batcher.flushAll()); // the operator sends nothing more until we answer
                } else {
                    runAll(batcher.flushExpired(System.nanoTime()));
                }
            }
        } catch (Throwable t) {
            failure = t;
            LOG.error("ML_PREDICT batching worker failed", t);
            for (Pending p : batcher.bufferedItems()) {
                p.future.completeExceptionally(t);
            }
            Pending p;
            while ((p = queue.poll()) != null) {
                p.future.completeExceptionally(t);
            }
        }
    }

    private void runAll(List<Batch<Pending>> ready) {
        for (Batch<Pending> b : ready) {
            run(b);
        }
    }

    private void run(Batch<Pending> batch) {
        Map<String, Pending> byId = new HashMap<>(batch.size() * 2);
        List<TokenizedDocument> docs = new ArrayList<>(batch.size());
        for (Pending p : batch.items()) {
            byId.put(p.doc.id, p);
            docs.add(p.doc);
        }
        long startedAt = System.currentTimeMillis();
        long t0 = System.nanoTime();
        BisectingRunner.Outcome outcome = runner.run(docs);
        for (int i = 0; i < outcome.succeeded.size(); i++) {
            TokenizedDocument d = outcome.succeeded.get(i);
            RowData row = columns.success(outcome.vectors.get(i), d.tokenCount(), d.truncated());
            byId.get(d.id).future.complete(List.of(row));
        }
        for (ErrorRecord e : outcome.failed) {
            Pending p = byId.get(e.id);
            LOG.warn("ML_PREDICT row failed: {}/{} (attempt {}): {}", e.stage, e.reason, e.attempt,
                    e.message);
            p.future.complete(List.of(columns.failure(e.stage, e.reason, p.tokens())));
        }
        PredictRecorder.batch(new PredictRecorder.BatchRecord(subtask, batch.size(), batch.realTokens(),
                batch.paddedTokens(), startedAt, (System.nanoTime() - t0) / 1e6));
        batches++;
        rows += batch.size();
        paddedTokens += batch.paddedTokens();
        realTokens += batch.realTokens();
    }

    /** Runs what is left, stops the thread and logs the subtask's batching summary. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
        if (batches > 0) {
            LOG.info("ML_PREDICT subtask ran {} rows in {} batches (mean {} rows, padding"
                            + " efficiency {})", rows, batches, String.format("%.1f", (double) rows / batches),
                    String.format("%.3f", paddedTokens == 0 ? 1.0 : (double) realTokens / paddedTokens));
        }
    }

    long batches() {
        return batches;
    }
}
