package io.github.flinkinfer.operators.ledger;

import java.io.Serializable;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Counts one stage's records into a partial {@link RunLedger} and hands the partial on (as JSON)
 * before each checkpoint barrier and at end of input, then starts a new one. Chained to the
 * stage, it adds a field update per record and no shuffle; since a partial leaves before the
 * barrier, the merger's checkpoint holds exactly the records before it, so a restore counts each
 * record once (STREAMING); in BATCH a partial leaves only when its attempt ends, so attempts that
 * were rolled back never add. Stateless itself.
 *
 * <pre>{@code
 * errors.transform("ledger-errors", Types.STRING, LedgerTally.of(RunLedger::addError));
 * }</pre>
 */
public final class LedgerTally<T> extends AbstractStreamOperator<String>
        implements OneInputStreamOperator<T, String>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** The name of the accumulator the progress line reads: model inputs done so far. */
    public static final String ITEMS_DONE = "flink-inference.items-done";

    /** Adds one record to a ledger. */
    @FunctionalInterface
    public interface Tallier<T> extends Serializable {
        void add(RunLedger ledger, T record);
    }

    /** Items of a record for the live progress accumulator (0: not counted). */
    @FunctionalInterface
    public interface Progress<T> extends Serializable {
        long items(T record);
    }

    private final Tallier<T> tallier;
    private final Progress<T> progress;
    private transient RunLedger partial;
    private transient boolean dirty;
    private transient LongCounter done;

    private LedgerTally(Tallier<T> tallier, Progress<T> progress) {
        this.tallier = tallier;
        this.progress = progress;
    }

    public static <T> LedgerTally<T> of(Tallier<T> tallier) {
        return new LedgerTally<>(tallier, null);
    }

    /** Same, also adding each record's items to the {@link #ITEMS_DONE} accumulator. */
    public static <T> LedgerTally<T> withProgress(Tallier<T> tallier, Progress<T> progress) {
        return new LedgerTally<>(tallier, progress);
    }

    @Override
    public void open() throws Exception {
        super.open();
        partial = new RunLedger();
        if (progress != null) {
            done = new LongCounter();
            getRuntimeContext().addAccumulator(ITEMS_DONE, done);
        }
    }

    @Override
    public void processElement(StreamRecord<T> element) {
        tallier.add(partial, element.getValue());
        dirty = true;
        if (done != null) {
            done.add(progress.items(element.getValue()));
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void endInput() {
        flush();
    }

    private void flush() {
        if (dirty) {
            partial.madeBy(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks());
            output.collect(new StreamRecord<>(partial.toJson()));
            partial = new RunLedger();
            dirty = false;
        }
    }
}
