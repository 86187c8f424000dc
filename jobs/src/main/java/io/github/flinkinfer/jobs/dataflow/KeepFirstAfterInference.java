package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Exchanges;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.dedupe.DocumentOutcome;
import io.github.flinkinfer.operators.dedupe.DroppedDuplicate;
import io.github.flinkinfer.operators.dedupe.DuplicateOutcomeFilter;
import io.github.flinkinfer.operators.dedupe.KeepFirstDecision;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.partitioner.BroadcastPartitioner;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.streaming.runtime.partitioner.KeyGroupStreamPartitioner;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;

/**
 * BATCH keep-first without sorting the corpus and without a tail that grows with it: keep-first
 * is decided on the documents' ids and positions alone ({@link KeepFirstDecision}; the
 * same document kept and the same rows as the dedupe before tokenization). Two shapes:
 * <ul>
 *   <li><b>Inputs that can be read twice</b> (files, a fixed Kafka range: {@link
 *       ParsedInput#again}): an <em>id pass</em>, a second source over the same inputs, marks
 *       every document; the marks reach the keyed decision over a <em>pipelined</em> exchange, so
 *       the id pass, the decision and the main read are one pipelined region deployed at once
 *       (over a blocking exchange Flink would run the id pass to its end before deploying the
 *       rest). The dropped positions go to a {@link DuplicateOutcomeFilter} of documents
 *       <em>before tokenize</em>, partitioned by position as the documents are (each subtask
 *       holds its share), which reads its positions before its first document
 *       ({@link #beforeTokenize}): no duplicate is tokenized or inferred, and the results go to
 *       the writers chained to inference, as without dedupe. The id pass (read, parse, a mark
 *       per document: about a tenth of the main path's CPU per document) is then the only
 *       stretch in which nothing is inferred.</li>
 *   <li><b>A topic read once</b> (a compacted Kafka topic): the marks are taken on the way to
 *       tokenize ({@link io.github.flinkinfer.operators.dedupe.PositionMarker}) and are complete
 *       only at the topic's end, so every document is inferred and the results and error rows
 *       wait in blocking exchanges for filters of their own ({@link #dedupe}): the results are
 *       written after the last batch.</li>
 * </ul>
 * Incremental and chunked runs keep {@link io.github.flinkinfer.operators.dedupe.DeduplicateFunction}
 * before tokenization (docs/errors.md).
 *
 * <pre>{@code
 * DataStream<Document> unique = KeepFirstAfterInference.beforeTokenize(input, config, errors);
 * // read once:
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
     * One position mark per document, id and position only ({@link DocumentOutcome#position}: the
     * filter before tokenize writes a dropped document's row), from the id pass over inputs that
     * can be read twice: at the tokenize parallelism where one is set (the CPU stages' cores;
     * inference waits for it).
     */
    static DataStream<DocumentOutcome> idPass(ParsedInput input, InferenceConfig config) {
        SingleOutputStreamOperator<DocumentOutcome> marks = input.again().apply(config.tokenizeParallelism())
                .map(DocumentOutcome::position)
                .returns(TypeInformation.of(DocumentOutcome.class))
                .name("mark-positions")
                .uid("mark-positions");
        StageParallelism.ofTokenize(marks, config); // chained to the id pass's parser
        return marks;
    }

    /**
     * The documents of {@code input} less the dropped duplicates, on the way to tokenize: the id
     * pass's marks are decided ({@link #decide}, over a pipelined keyed exchange) and the dropped
     * documents sent (pipelined) to a {@link DuplicateOutcomeFilter} of documents chained to
     * tokenize, which holds the documents back until every position is known; the main read's
     * documents and the dropped ones are both partitioned by position, so each filter subtask
     * holds only its share of the dropped positions. The duplicate rows, the filter's, go to {@code errors}.
     */
    static DataStream<Document> beforeTokenize(ParsedInput input, InferenceConfig config,
            List<DataStream<ErrorRecord>> errors) {
        SingleOutputStreamOperator<DroppedDuplicate> dropped = decide(idPass(input, config), StreamExchangeMode.PIPELINED);
        DuplicateOutcomeFilter<Document> filter = DuplicateOutcomeFilter.ofDocuments();
        SingleOutputStreamOperator<Document> kept = Exchanges.pipelined(input.documents(), filter.outcomes())
                .connect(Exchanges.pipelined(dropped, DuplicateOutcomeFilter.positions()))
                .transform("drop-duplicate-documents", TypeInformation.of(Document.class), filter)
                .uid("drop-duplicate-documents");
        StageParallelism.ofTokenize(kept, config); // chained with tokenize
        errors.add(kept.getSideOutput(Outputs.ERRORS));
        return kept;
    }

    /**
     * The keyed decision: {@code marks} keyed by a hash of the id ({@link KeepFirstDecision})
     * over an exchange of {@code mode}; returns the dropped documents, with a {@code duplicate_id}
     * row for each whose mark describes its input on {@link Outputs#ERRORS}. Built as {@code keyBy(...).process(...)} builds it,
     * but with the exchange's mode set: Flink's BATCH mode makes every keyed exchange blocking, and
     * there is no public API for one edge's mode. {@link KeepFirstDecision} decides a key when the
     * next one starts, so it needs the sorted inputs BATCH gives keyed operators: refused, with the
     * setting named, where {@code execution.sorted-inputs.enabled} turns them off.
     */
    private static SingleOutputStreamOperator<DroppedDuplicate> decide(DataStream<DocumentOutcome> marks,
            StreamExchangeMode mode) {
        if (!marks.getExecutionEnvironment().getConfiguration().get(ExecutionOptions.SORT_INPUTS)) {
            throw new IllegalArgumentException("keep-first decides each id on BATCH's inputs sorted by key, and "
                    + ExecutionOptions.SORT_INPUTS.key() + " is false: set it to true (Flink's default),"
                    + " or run with --duplicates allow");
        }
        KeepFirstDecision.IdKey key = new KeepFirstDecision.IdKey();
        SingleOutputStreamOperator<DroppedDuplicate> dropped = Exchanges.of(marks,
                        new KeyGroupStreamPartitioner<>(key, KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM),
                        mode)
                .transform("keep-first-ids", TypeInformation.of(DroppedDuplicate.class), new KeepFirstDecision())
                .uid("keep-first-ids");
        // what KeyedStream adds: keyed state, and in BATCH mode the sorted input
        OneInputTransformation<DocumentOutcome, DroppedDuplicate> keyed =
                (OneInputTransformation<DocumentOutcome, DroppedDuplicate>) dropped.getTransformation();
        keyed.setStateKeySelector(key);
        keyed.setStateKeyType(Types.LONG);
        return dropped;
    }

    /**
     * Keep-first for inputs read once: {@code marks} (one per document, complete at the input's
     * end) are decided ({@link #decide}, blocking), and the dropped positions broadcast (each
     * filter subtask holds all of them; the results stay on the inference subtasks' slots) to a
     * {@link DuplicateOutcomeFilter} before the result writers and one on the error rows of
     * tokenize and inference. Both filters' inputs are blocking, else inference and the marks
     * would wait on each other: the results are written after the last batch. The results edge
     * is a forward one (the filter and the writers on the inference subtasks' slots) unless
     * tokenize has a parallelism of its own ({@link StageParallelism}): then a rebalance to that
     * many filters, so the corpus is written by the CPU stages' subtasks. Tallies dropped
     * duplicates that reached the model; returns the kept results.
     */
    static DataStream<InferenceResult> dedupe(DataStream<DocumentOutcome> marks,
            DataStream<ErrorRecord> tokenizeErrors, SingleOutputStreamOperator<InferenceResult> inference,
            List<DataStream<ErrorRecord>> errors, Accounting accounting, InferenceConfig config) {
        // UNDEFINED, as keyBy gives: blocking in BATCH unless the cluster pipelines every exchange
        SingleOutputStreamOperator<DroppedDuplicate> droppedPositions = decide(marks, StreamExchangeMode.UNDEFINED);
        errors.add(droppedPositions.getSideOutput(Outputs.ERRORS)); // the marks describe their inputs
        StreamExchangeMode resultsMode = StreamExchangeMode.BATCH;
        boolean ownStages = config.tokenizeParallelism() > 0;
        DataStream<InferenceResult> results = Exchanges.of(inference,
                ownStages ? new RebalancePartitioner<>() : new ForwardPartitioner<>(), resultsMode);
        DataStream<DroppedDuplicate> positions = Exchanges.of(droppedPositions, new BroadcastPartitioner<>(), resultsMode);
        SingleOutputStreamOperator<InferenceResult> kept = results.connect(positions)
                .transform("drop-duplicate-results", TypeInformation.of(InferenceResult.class),
                        DuplicateOutcomeFilter.ofResults())
                .uid("drop-duplicate-results");
        SameParallelism.as(kept.getTransformation(), inference); // forward: the inference subtasks
        StageParallelism.ofTokenize(kept, config); // rebalanced: the CPU stage's
        accounting.tally(kept.getSideOutput(DuplicateOutcomeFilter.DROPPED_RESULTS), "dropped-duplicate-results",
                (l, r) -> l.addDuplicateInferred(true));

        DataStream<ErrorRecord> failed = Exchanges.of(tokenizeErrors.union(inference.getSideOutput(Outputs.ERRORS)),
                new RebalancePartitioner<>(), resultsMode);
        SingleOutputStreamOperator<ErrorRecord> keptErrors = failed.connect(
                        Exchanges.of(droppedPositions, new BroadcastPartitioner<>(), resultsMode))
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
}
