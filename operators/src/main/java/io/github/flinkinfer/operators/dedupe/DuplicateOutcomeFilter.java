package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.MathUtils;
import org.apache.flink.util.OutputTag;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Drops the documents, or their outcomes (results, error rows of tokenization and inference),
 * that {@link KeepFirstDecision} dropped as duplicates: input 1 is the documents or
 * outcomes, input 2 the dropped documents: both partitioned by position ({@link #outcomes()},
 * {@link #positions()}: a document and its dropped position meet in one subtask), or input 2
 * broadcast, every dropped position to every subtask, where input 1 cannot move (results kept
 * on the inference subtasks' slots). A dropped document
 * becomes its {@code duplicate_id} row here ({@link Outputs#ERRORS}: its input's length and
 * sha256 are taken from the text it holds, so the id pass's marks need not carry them); a dropped
 * result or error row goes to {@link #dropped()}, its row being the decision's. The
 * operator reads input 2 to its end before the first record of input 1 (it selects that input
 * until it ends, as Flink's own BATCH broadcast operators do), so input 1 needs neither a key
 * nor a sort: its records pass on unchanged, in the order they arrive, unless their position is
 * one of the dropped. Over pipelined inputs input 1 waits,
 * backpressured, until the positions end ({@code KeepFirstAfterInference} builds both shapes).
 *
 * <pre>{@code
 * DuplicateOutcomeFilter<Document> filter = DuplicateOutcomeFilter.ofDocuments();
 * Exchanges.pipelined(documents, filter.outcomes())
 *         .connect(Exchanges.pipelined(dropped, DuplicateOutcomeFilter.positions()))
 *         .transform("drop-duplicate-documents", type, filter);
 * }</pre>
 *
 * <p>Memory: each subtask holds the dropped positions it receives, with the kept one's, an exact
 * map of strings, about 250 bytes per duplicate for 50-character positions, none for a corpus
 * without duplicate ids: partitioned, a JVM holds each dropped position once whatever the number
 * of its filter subtasks; broadcast, once per subtask (docs/errors.md).
 */
public final class DuplicateOutcomeFilter<T> extends AbstractStreamOperator<T>
        implements TwoInputStreamOperator<T, DroppedDuplicate, T>, InputSelectable, BoundedMultiInput {
    private static final long serialVersionUID = 1L;
    /** Results of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<InferenceResult> DROPPED_RESULTS =
            new OutputTag<>("dropped-duplicate-results", TypeInformation.of(InferenceResult.class));
    /** Error rows of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<ErrorRecord> DROPPED_ERRORS =
            new OutputTag<>("dropped-duplicate-errors", TypeInformation.of(ErrorRecord.class));

    private final SerializableFunction<T, String> position;
    private final OutputTag<T> droppedTag; // null where a dropped one becomes its row
    private final RowOf<T> row;
    private transient Map<String, String> keptAt; // by dropped position
    private transient boolean positionsRead;

    /** The {@code duplicate_id} row of a dropped document, naming the kept one's position. */
    @FunctionalInterface
    private interface RowOf<T> extends Serializable {
        ErrorRecord row(T dropped, String keptAt);
    }

    private DuplicateOutcomeFilter(SerializableFunction<T, String> position, OutputTag<T> dropped, RowOf<T> row) {
        this.position = position;
        this.droppedTag = dropped;
        this.row = row;
    }

    /** The filter of inference results; dropped ones go to {@link #DROPPED_RESULTS}. */
    public static DuplicateOutcomeFilter<InferenceResult> ofResults() {
        return new DuplicateOutcomeFilter<>(r -> r.source, DROPPED_RESULTS, null);
    }

    /**
     * The filter of documents on their way to tokenize, after the id pass's {@link
     * DocumentOutcome#position} marks: a dropped one becomes its {@code duplicate_id} row.
     */
    public static DuplicateOutcomeFilter<Document> ofDocuments() {
        return new DuplicateOutcomeFilter<>(d -> d.source, null, (d, kept) -> DocumentOutcome.mark(d).duplicateRow(kept));
    }

    /** The filter of tokenize and inference error rows; dropped ones go to {@link #DROPPED_ERRORS}. */
    public static DuplicateOutcomeFilter<ErrorRecord> ofErrors() {
        return new DuplicateOutcomeFilter<>(e -> e.source, DROPPED_ERRORS, null);
    }

    /**
     * The exchange to this filter's first input: each document or outcome to the subtask of its
     * position, where {@link #positions()} sends that position if it was dropped.
     */
    public StreamPartitioner<T> outcomes() {
        return new ByPosition<>(position);
    }

    /** The exchange of the dropped positions to the filters' second input: each to the subtask of its position. */
    public static StreamPartitioner<DroppedDuplicate> positions() {
        return new ByPosition<>(d -> d.position);
    }

    /** Where the outcomes of dropped duplicates go (null for documents: their rows go to {@link Outputs#ERRORS}). */
    public OutputTag<T> dropped() {
        return droppedTag;
    }

    @Override
    public void open() throws Exception {
        super.open();
        keptAt = new HashMap<>();
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
        String kept = keptAt.get(at);
        if (kept == null) {
            output.collect(outcome);
        } else if (row != null) {
            output.collect(Outputs.ERRORS, new StreamRecord<>(row.row(outcome.getValue(), kept)));
        } else {
            output.collect(droppedTag, outcome);
        }
    }

    @Override
    public void processElement2(StreamRecord<DroppedDuplicate> dropped) {
        keptAt.put(dropped.getValue().position, dropped.getValue().keptAt);
    }

    /**
     * Each record to the subtask of its position's hash (spread by murmur, as Flink spreads
     * keys): a document, its results and error rows, and its dropped position, whose position
     * strings are equal, all go to the same one.
     */
    private static final class ByPosition<T> extends StreamPartitioner<T> {
        private static final long serialVersionUID = 1L;
        private final SerializableFunction<T, String> position;

        ByPosition(SerializableFunction<T, String> position) {
            this.position = position;
        }

        @Override
        public int selectChannel(SerializationDelegate<StreamRecord<T>> record) {
            return MathUtils.murmurHash(Objects.hashCode(position.apply(record.getInstance().getValue())))
                    % numberOfChannels;
        }

        @Override
        public StreamPartitioner<T> copy() {
            return this;
        }

        @Override
        public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
            return SubtaskStateMapper.FULL; // no state of its own: any records may come to any subtask
        }

        @Override
        public boolean isPointwise() {
            return false;
        }

        @Override
        public String toString() {
            return "POSITION";
        }
    }
}
