package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What one kind of run (embedding, moderation, the next one) adds to the lifecycle every run
 * shares ({@link InferenceRun}) and to the dataflow every run shares ({@link InferencePipeline}):
 * the model task it needs, its own option checks, how its result rows are written, and extra
 * summary totals. Source, dedupe, tokenize, batch-and-infer, metrics, errors, error budget,
 * rerun guard, report, quality gate and success marker are not its business.
 *
 * <pre>{@code
 * RunSummary s = InferenceRun.execute(new EmbeddingTask(), spec, env, null);
 * }</pre>
 */
public interface InferenceTask {
    /** The command's name, for the job name and messages ({@code embed}, {@code moderate}). */
    String name();

    /** The kind of model the task runs. */
    ModelTask modelTask();

    /** Checks the task's own option combinations; throws IllegalArgumentException. */
    default void validate(RunSpec spec) {}

    /**
     * Writes the result rows (every successful item) to the task's outputs; {@code chunking} says
     * whether an item is a document or one of its token windows. A task that writes the rows as
     * they are tallies them in {@code accounting} ({@code written}), so the ledger proves none was
     * lost on the way.
     */
    void writeResults(DataStream<InferenceResult> rows, OutputConfig out, Chunking chunking, ModelCard card,
            io.github.flinkinfer.jobs.ledger.Accounting accounting);
}
