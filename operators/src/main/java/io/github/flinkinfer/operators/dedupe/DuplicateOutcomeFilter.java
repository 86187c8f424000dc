package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Drops the documents, or their outcomes (results, error rows of tokenization and inference),
 * that {@link KeepFirstDecision} dropped as duplicates: input 1 is the documents or
 * outcomes, input 2 the dropped documents' positions (every position to every subtask). The
 * operator reads input 2 to its end before the first record of input 1 (it selects that input
 * until it ends, as Flink's own BATCH broadcast operators do), so input 1 needs neither a key
 * nor a sort: its records pass on unchanged, in the order they arrive, unless their position is
 * one of the dropped, which go to {@link #dropped()}. Over pipelined inputs input 1 waits,
 * backpressured, until the positions end ({@code KeepFirstAfterInference} builds both shapes).
 *
 * <pre>{@code
 * documents.connect(positions).transform("drop-duplicate-documents", type, DuplicateOutcomeFilter.ofDocuments());
 * }</pre>
 *
 * <p>Memory: every subtask holds every dropped position, an exact set of strings, about 130 bytes
 * per duplicate for 50-character positions, none for a corpus without duplicate ids
 * (docs/errors.md).
 */
public final class DuplicateOutcomeFilter<T> extends AbstractStreamOperator<T>
        implements TwoInputStreamOperator<T, String, T>, InputSelectable, BoundedMultiInput {
    private static final long serialVersionUID = 1L;
    /** Results of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<InferenceResult> DROPPED_RESULTS =
            new OutputTag<>("dropped-duplicate-results", TypeInformation.of(InferenceResult.class));
    /** Documents dropped as duplicates before tokenize (their {@code duplicate_id} rows are the decision's). */
    public static final OutputTag<Document> DROPPED_DOCUMENTS =
            new OutputTag<>("dropped-duplicate-documents", TypeInformation.of(Document.class));
    /** Error rows of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<ErrorRecord> DROPPED_ERRORS =
            new OutputTag<>("dropped-duplicate-errors", TypeInformation.of(ErrorRecord.class));

    private final SerializableFunction<T, String> position;
    private final OutputTag<T> droppedTag;
    private transient Set<String> droppedPositions;
    private transient boolean positionsRead;

    private DuplicateOutcomeFilter(SerializableFunction<T, String> position, OutputTag<T> dropped) {
        this.position = position;
        this.droppedTag = dropped;
    }

    /** The filter of inference results; dropped ones go to {@link #DROPPED_RESULTS}. */
    public static DuplicateOutcomeFilter<InferenceResult> ofResults() {
        return new DuplicateOutcomeFilter<>(r -> r.source, DROPPED_RESULTS);
    }

    /** The filter of documents on their way to tokenize; dropped ones go to {@link #DROPPED_DOCUMENTS}. */
    public static DuplicateOutcomeFilter<Document> ofDocuments() {
        return new DuplicateOutcomeFilter<>(d -> d.source, DROPPED_DOCUMENTS);
    }

    /** The filter of tokenize and inference error rows; dropped ones go to {@link #DROPPED_ERRORS}. */
    public static DuplicateOutcomeFilter<ErrorRecord> ofErrors() {
        return new DuplicateOutcomeFilter<>(e -> e.source, DROPPED_ERRORS);
    }

    /** Where the outcomes of dropped duplicates go. */
    public OutputTag<T> dropped() {
        return droppedTag;
    }

    @Override
    public void open() throws Exception {
        super.open();
        droppedPositions = new HashSet<>();
    }

    @Override
    public InputSelection nextSelection() {
        return positionsRead ? InputSelection.FIRST : InputSelection.SECOND;
    }

    @Override
    public void endInput(int inputId) {
        if (inputId == 2) {
            positionsRead = true;
        }
    }

    @Override
    public void processElement1(StreamRecord<T> outcome) {
        String at = position.apply(outcome.getValue());
        if (!positionsRead) {
            throw new IllegalStateException("an outcome arrived before every dropped position: " + at);
        }
        if (droppedPositions.contains(at)) {
            output.collect(droppedTag, outcome);
        } else {
            output.collect(outcome);
        }
    }

    @Override
    public void processElement2(StreamRecord<String> dropped) {
        droppedPositions.add(dropped.getValue());
    }
}
