package io.github.flinkinfer.jobs.spec;

import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.run.BatchInferenceOperator;
import io.github.flinkinfer.operators.run.QualityGate;

/**
 * What the shared middle of the dataflow ({@code InferencePipeline#infer}) needs: dedupe,
 * skip-unchanged, tokenize, batch-and-infer and doc pooling. Built from the command line in one
 * place, {@code RunOptions#inferenceConfig(runtime)}, into the run's spec ({@code RunSpec#inference}).
 *
 * <pre>{@code
 * InferenceConfig config = spec.inference();
 * InferencePipeline.Inferred inferred = InferencePipeline.infer(input, config, runId, model, kind);
 * }</pre>
 *
 * @param duplicates what happens to a second record with an id already seen
 * @param batchMode BATCH runtime mode (dedupe state needs no expiry); false in STREAMING
 * @param pipelinedToInference BATCH: the documents may reach inference over a pipelined exchange
 *     (Flink's default scheduler; {@code KeepFirstAfterInference}); false when the job writes to
 *     Kafka, whose sinks that path does not support yet, or shuffles the hybrid way
 *     (docs/errors.md)
 * @param overlong inputs longer than the max length: truncated or errors
 * @param chunking token windows at tokenization, and doc-level pooling after inference
 * @param previousOutput output directory of an earlier run to reuse; null = infer everything
 * @param previousRunId run in {@code previousOutput} to reuse; null = its newest successful one
 * @param batching length buckets and batch limits
 * @param cost prices for the cost report
 * @param qualityGate the reference check of a sample of outputs; null = off
 * @param overlap whether model calls run on their own thread
 * @param tokenizeParallelism subtasks of dedupe + tokenize in their own task; 0 = chained with
 *     inference (docs/operations.md, "Sizing a GPU TaskManager")
 */
public record InferenceConfig(
        DuplicatePolicy duplicates,
        boolean batchMode,
        boolean pipelinedToInference,
        OverlongPolicy overlong,
        Chunking chunking,
        String previousOutput,
        String previousRunId,
        BatchingConfig batching,
        CostModel cost,
        QualityGate qualityGate,
        BatchInferenceOperator.Overlap overlap,
        int tokenizeParallelism) {

    /** True when unchanged documents of {@link #previousOutput} are carried over, not inferred. */
    public boolean incremental() {
        return previousOutput != null;
    }
}
