package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import java.util.function.Consumer;

/** Runs each batch on the task thread and hands it on at once: nothing is ever in flight. */
final class DirectBatchExecutor implements BatchExecutor {
    private final BisectingRunner runner;
    private final Consumer<BatchRun> sink;

    DirectBatchExecutor(BisectingRunner runner, Consumer<BatchRun> sink) {
        this.runner = runner;
        this.sink = sink;
    }

    @Override
    public void submit(Batch<TokenizedDocument> batch) {
        long startNanos = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        sink.accept(new BatchRun(batch, runner.run(batch.items()), startNanos, startMillis));
    }

    @Override
    public void emitFinished(boolean all) {}

    @Override
    public boolean shutdown() {
        return true;
    }
}
