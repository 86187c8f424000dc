package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.dedupe.DocumentOutcome;
import io.github.flinkinfer.operators.dedupe.DuplicateOutcomeFilter;
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
 * BATCH keep-first without holding inference back and without a tail that grows with the corpus:
 * the documents reach tokenize and inference over a pipelined rebalance (inference starts with
 * the first records), while keep-first is decided on the documents' ids and positions alone
 * ({@link KeepFirstOutcomesFunction}; same document kept, same rows, as the dedupe before
 * tokenization). The marks come from an <em>id pass</em>, a second source over the same inputs
 * ({@link ParsedInput#again}: the files, or a Kafka backfill's range fixed before submission),
 * which never waits on inference; a compacted Kafka topic is read once, so its marks are taken on
 * the way to tokenize ({@link io.github.flinkinfer.operators.dedupe.PositionMarker}) and are
 * complete when the topic's end is.
 * The dropped positions are broadcast to {@link DuplicateOutcomeFilter}s in front of the result
 * and error writers. Incremental and chunked runs keep {@link
 * io.github.flinkinfer.operators.dedupe.DeduplicateFunction} before tokenization (docs/errors.md).
 *
 * <pre>{@code
 * DataStream<DocumentOutcome> marks = KeepFirstAfterInference.marks(input, toTokenize, config);
 * DataStream<InferenceResult> kept = KeepFirstAfterInference.dedupe(marks, tokenizeErrors, inference, ...);
 * }</pre>
 */
final class KeepFirstAfterInference {
    private KeepFirstAfterInference() {}

    /** Whether the run dedupes after inference. */
    static boolean applies(InferenceConfig config) {
        return config.duplicates() == DuplicatePolicy.KEEP_FIRST && config.pipelinedToInference()
                && !config.incremental() && !config.chunking().enabled();
    }

    /**
     * One position mark per document, from the id pass over inputs that can be read twice: at the
     * tokenize parallelism where one is set (the CPU stages' cores; inference waits for it).
     */
    static DataStream<DocumentOutcome> idPass(ParsedInput input, InferenceConfig config) {
        SingleOutputStreamOperator<DocumentOutcome> marks = input.again().apply(config.tokenizeParallelism())
                .map(DocumentOutcome::mark)
                .returns(TypeInformation.of(DocumentOutcome.class))
                .name("mark-positions")
                .uid("mark-positions");
        StageParallelism.ofTokenize(marks, config); // chained to the id pass's parser
        return marks;
    }

    /**
     * Keeps the first document of each id without sorting the vectors: {@code marks} (one per
     * document) are keyed by a hash of the id ({@link KeepFirstOutcomesFunction}), which writes
     * one duplicate row per dropped document to {@code errors} and broadcasts the dropped
     * documents' positions to a {@link DuplicateOutcomeFilter} before the result writers, which
     * reads them all before its first result. With an {@code idPass} (marks that do not wait on
     * inference) both edges into that filter are pipelined: inference runs until the results'
     * buffers are full, then waits until the ids are decided, and every result is written while
     * inference runs. Without one (marks taken on the way to tokenize, complete at the source's
     * end) both are blocking, else inference and the marks would wait on each other: the results
     * are then written after the last batch. (A hybrid results edge would give both, but a
     * TaskManager builds the hybrid shuffle's storage only when its own batch shuffle mode is
     * hybrid: docs/errors.md.) The results edge is a forward one (the filter and the writers on
     * the inference subtasks' slots) unless tokenize has a parallelism of its own ({@link
     * StageParallelism}): then a rebalance to that many filters, so the corpus is written by the
     * CPU stages' subtasks, not by the device's few. The error rows of tokenize and inference go
     * to a filter of their own over edges of the same modes. Tallies dropped duplicates
     * that reached the model; returns the kept results.
     */
    static DataStream<InferenceResult> dedupe(DataStream<DocumentOutcome> marks,
            DataStream<ErrorRecord> tokenizeErrors, SingleOutputStreamOperator<InferenceResult> inference,
            List<DataStream<ErrorRecord>> errors, Accounting accounting, InferenceConfig config,
            boolean idPass) {
        SingleOutputStreamOperator<String> droppedPositions = marks
                .keyBy(new KeepFirstOutcomesFunction.IdKey(), Types.LONG)
                .process(new KeepFirstOutcomesFunction())
                .returns(Types.STRING)
                .name("keep-first-ids")
                .uid("keep-first-ids");
        errors.add(droppedPositions.getSideOutput(Outputs.ERRORS));
        // an id pass decides without inference: the results stream through the filter once it has
        // decided; marks taken on the way to tokenize are complete only at the source's end, so
        // the results must wait in a blocking exchange (else inference and the marks hold each other)
        StreamExchangeMode resultsMode = idPass ? StreamExchangeMode.PIPELINED : StreamExchangeMode.BATCH;
        boolean ownStages = config.tokenizeParallelism() > 0;
        DataStream<InferenceResult> results = exchange(inference,
                ownStages ? new RebalancePartitioner<>() : new ForwardPartitioner<>(), resultsMode);
        DataStream<String> positions = exchange(droppedPositions, new BroadcastPartitioner<>(), resultsMode);
        SingleOutputStreamOperator<InferenceResult> kept = results.connect(positions)
                .transform("drop-duplicate-results", TypeInformation.of(InferenceResult.class),
                        DuplicateOutcomeFilter.ofResults())
                .uid("drop-duplicate-results");
        SameParallelism.as(kept.getTransformation(), inference); // forward: the inference subtasks
        StageParallelism.ofTokenize(kept, config); // rebalanced: the CPU stage's
        accounting.tally(kept.getSideOutput(DuplicateOutcomeFilter.DROPPED_RESULTS), "dropped-duplicate-results",
                (l, r) -> l.addDuplicateInferred(true));

        // the same modes as the results' (pipelined with an id pass): a blocking exchange holds a
        // sort-shuffle partition of taskmanager.network.sort-shuffle.min-buffers (512 on a cluster)
        // per producing subtask for the whole of inference, which a TaskManager sized for the old
        // path lacked (StandaloneApplicationITCase)
        DataStream<ErrorRecord> failed = exchange(tokenizeErrors.union(inference.getSideOutput(Outputs.ERRORS)),
                new RebalancePartitioner<>(), resultsMode);
        SingleOutputStreamOperator<ErrorRecord> keptErrors = failed.connect(
                        exchange(droppedPositions, new BroadcastPartitioner<>(), resultsMode))
                .transform("drop-duplicate-errors", TypeInformation.of(ErrorRecord.class),
                        DuplicateOutcomeFilter.ofErrors())
                .uid("drop-duplicate-errors");
        errors.add(keptErrors);
        accounting.tally(keptErrors.getSideOutput(DuplicateOutcomeFilter.DROPPED_ERRORS), "dropped-duplicate-errors",
                (l, e) -> {
                    if (!ErrorRecord.TOKENIZE.equals(e.stage)) { // it reached the model
                        l.addDuplicateInferred(false);
                    }
                });
        return kept;
    }

    private static <T> DataStream<T> exchange(DataStream<T> stream, StreamPartitioner<T> partitioner,
            StreamExchangeMode mode) {
        return new DataStream<>(stream.getExecutionEnvironment(),
                new PartitionTransformation<>(stream.getTransformation(), partitioner, mode));
    }
}
