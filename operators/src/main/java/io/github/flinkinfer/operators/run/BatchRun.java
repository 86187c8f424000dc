package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;

/**
 * One batch after its model call, with when that call started: what a {@link BatchExecutor}
 * hands back so results, metrics and the quality sample are taken from the same run.
 *
 * @param startNanos {@link System#nanoTime()} when the model call started
 * @param startMillis epoch millis of the same instant (for throughput over time)
 */
record BatchRun(Batch<TokenizedDocument> batch, BisectingRunner.Outcome outcome, long startNanos,
        long startMillis) {}
