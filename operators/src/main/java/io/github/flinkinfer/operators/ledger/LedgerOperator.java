package io.github.flinkinfer.operators.ledger;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Merges every stage's partial ledgers into the run's (parallelism 1, the merged ledger in
 * checkpointed state), judges the error budget on each arrival — so a STREAMING run stops at the
 * first checkpoint past the budget, a BATCH one at its end — and at end of input writes the
 * ledger to {@code ledgerPath} (any Flink file system) for the driver and {@code report}.
 */
public final class LedgerOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<String, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final String ledgerPath;
    private final ErrorBudget budget;
    private final Long latencyBoundMs;
    private transient RunLedger merged;
    private transient ListState<String> state;

    public LedgerOperator(String ledgerPath, ErrorBudget budget, Long latencyBoundMs) {
        this.ledgerPath = ledgerPath;
        this.budget = budget;
        this.latencyBoundMs = latencyBoundMs;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("ledger", Types.STRING));
        merged = new RunLedger();
        for (String json : state.get()) {
            merged.merge(RunLedger.fromJson(json));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(List.of(merged.toJson()));
    }

    @Override
    public void processElement(StreamRecord<String> element) {
        merged.merge(RunLedger.fromJson(element.getValue()));
        judge(false);
    }

    @Override
    public void endInput() throws Exception {
        merged.latencyBoundMs = latencyBoundMs;
        merged.endedAtMillis = System.currentTimeMillis();
        judge(true);
        Path path = new Path(ledgerPath);
        FileSystem fs = path.getFileSystem();
        try (OutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
            out.write(merged.toJson().getBytes(StandardCharsets.UTF_8));
        }
    }

    private void judge(boolean endOfInput) {
        budget.violation(merged, endOfInput).ifPresent(msg -> {
            throw new SuppressRestartsException(new ErrorBudgetExceededException(msg));
        });
    }
}
