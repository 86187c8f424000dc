package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.dedupe.DocumentOutcome;
import io.github.flinkinfer.operators.dedupe.DuplicateResultFilter;
import io.github.flinkinfer.operators.dedupe.KeepFirstOutcomesFunction;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.partitioner.BroadcastPartitioner;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;

/**
 * BATCH keep-first without holding inference back: the documents reach tokenize and inference
 * over a pipelined rebalance (one pipelined region with the source, so inference starts with
 * the first records, whatever the corpus size), and the documents are deduplicated after
 * inference on their ids and positions ({@link KeepFirstOutcomesFunction}; same document kept,
 * same rows, as the dedupe before tokenization), the results filtered by the dropped positions
 * ({@link DuplicateResultFilter}) without a key or a sort. Incremental and chunked runs keep {@link
 * io.github.flinkinfer.operators.dedupe.DeduplicateFunction} before tokenization (docs/errors.md).
 */
final class KeepFirstAfterInference {
    private KeepFirstAfterInference() {}

    /** Whether the run dedupes after inference. */
    static boolean applies(InferenceConfig config) {
        return config.duplicates() == DuplicatePolicy.KEEP_FIRST && config.pipelinedToInference()
                && !config.incremental() && !config.chunking().enabled();
    }

    /**
     * Keeps the first document of each id without sorting the vectors: {@code marks} (one per
     * document), tokenize errors and inference errors are keyed by a hash of the id ({@link
     * KeepFirstOutcomesFunction}), which writes the kept error rows and one duplicate row per other
     * document to {@code errors} and broadcasts the dropped documents' positions; the results of
     * {@code inference} reach {@link DuplicateResultFilter} over a blocking exchange, the positions
     * over a blocking broadcast one, and the filter reads every position first. The exchange is a
     * forward one (the filter and the writers after it on the inference subtasks' slots) unless
     * tokenize has a parallelism of its own ({@link StageParallelism}): then a rebalance to that
     * many filters, so the corpus is written by the CPU stages' subtasks, not by the device's few.
     * Tallies dropped duplicates that reached the model; returns the kept results.
     */
    static DataStream<InferenceResult> dedupe(DataStream<DocumentOutcome> marks,
            DataStream<ErrorRecord> tokenizeErrors, SingleOutputStreamOperator<InferenceResult> inference,
            List<DataStream<ErrorRecord>> errors, Accounting accounting, InferenceConfig config) {
        TypeInformation<DocumentOutcome> type = TypeInformation.of(DocumentOutcome.class);
        DataStream<DocumentOutcome> outcomes = marks
                .union(tokenizeErrors.map(DocumentOutcome::of).returns(type).name("tokenize-error-outcomes"))
                .union(inference.getSideOutput(Outputs.ERRORS).map(DocumentOutcome::of).returns(type)
                        .name("inference-error-outcomes"));
        SingleOutputStreamOperator<String> droppedPositions = outcomes
                .keyBy(new KeepFirstOutcomesFunction.IdKey(), Types.LONG)
                .process(new KeepFirstOutcomesFunction())
                .returns(Types.STRING)
                .name("keep-first-ids")
                .uid("keep-first-ids");
        errors.add(droppedPositions.getSideOutput(Outputs.ERRORS));
        accounting.tally(droppedPositions.getSideOutput(KeepFirstOutcomesFunction.DROPPED),
                "dropped-duplicate-errors", (l, o) -> {
                    if (o.reachedModel()) {
                        l.addDuplicateInferred(false);
                    }
                });
        // both blocking whatever execution.batch-shuffle-mode says: the filter reads every
        // position before the first result, so a pipelined results edge would hold inference
        // (and the marks) back, and a hybrid one let the filter take slots before its inputs end
        boolean ownStages = config.tokenizeParallelism() > 0;
        DataStream<InferenceResult> results = blocking(inference,
                ownStages ? new RebalancePartitioner<>() : new ForwardPartitioner<>());
        DataStream<String> positions = blocking(droppedPositions, new BroadcastPartitioner<>());
        SingleOutputStreamOperator<InferenceResult> kept = results.connect(positions)
                .transform("drop-duplicate-results", TypeInformation.of(InferenceResult.class),
                        new DuplicateResultFilter())
                .uid("drop-duplicate-results");
        SameParallelism.as(kept.getTransformation(), inference); // forward: the inference subtasks
        StageParallelism.ofTokenize(kept, config); // rebalanced: the CPU stage's
        accounting.tally(kept.getSideOutput(DuplicateResultFilter.DROPPED), "dropped-duplicate-results",
                (l, r) -> l.addDuplicateInferred(true));
        return kept;
    }

    private static <T> DataStream<T> blocking(DataStream<T> stream, StreamPartitioner<T> partitioner) {
        return new DataStream<>(stream.getExecutionEnvironment(),
                new PartitionTransformation<>(stream.getTransformation(), partitioner, StreamExchangeMode.BATCH));
    }
}
