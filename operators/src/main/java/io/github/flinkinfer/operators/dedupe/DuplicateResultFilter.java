package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.InferenceResult;
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

/**
 * Drops the results of documents that {@link KeepFirstOutcomesFunction} dropped as duplicates:
 * input 1 is the results, input 2 the dropped documents' positions (every position to every
 * subtask). The operator reads input 2 to its end before the first result (it selects that input
 * until it ends, as Flink's own BATCH broadcast operators do), so the results need neither a key
 * nor a sort: they pass on unchanged, in the order inference wrote them, unless their position
 * is one of the dropped. Both inputs must be blocking exchanges, so that neither waits on the
 * other's producer whatever {@code execution.batch-shuffle-mode} says ({@code
 * KeepFirstAfterInference} builds them so).
 *
 * <p>Memory: every subtask holds every dropped position its own results have not matched yet: an
 * exact set of strings, about 130 bytes per duplicate with a result for 50-character positions,
 * none for a corpus without duplicate ids (docs/errors.md).
 */
public class DuplicateResultFilter extends AbstractStreamOperator<InferenceResult>
        implements TwoInputStreamOperator<InferenceResult, String, InferenceResult>, InputSelectable,
                BoundedMultiInput {
    private static final long serialVersionUID = 1L;
    /** Results of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<InferenceResult> DROPPED =
            new OutputTag<>("dropped-duplicate-results", TypeInformation.of(InferenceResult.class));

    private transient Set<String> dropped;
    private transient boolean positionsRead;

    @Override
    public void open() throws Exception {
        super.open();
        dropped = new HashSet<>();
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
    public void processElement1(StreamRecord<InferenceResult> result) {
        if (!positionsRead) {
            throw new IllegalStateException("a result arrived before every dropped position: " + result.getValue().source);
        }
        if (dropped.remove(result.getValue().source)) {
            output.collect(DROPPED, result);
        } else {
            output.collect(result);
        }
    }

    @Override
    public void processElement2(StreamRecord<String> position) {
        dropped.add(position.getValue());
    }
}
