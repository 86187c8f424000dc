package io.github.flinkinfer.operators;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keep-first dedupe after inference (BATCH mode), decided on ids and positions only: on the
 * position marks and error rows keyed by id, the document with the smallest source position
 * ({@link DeduplicateFunction#comparePositions}) is kept and its error row (if it failed) goes to
 * {@link Outputs#ERRORS}; every other document of the id becomes one {@code duplicate_id} row
 * naming the kept position. The main output is the position of each dropped document that has
 * no error row, i.e. whose outcome is a result: {@link DuplicateResultFilter} drops those
 * results before the writers, so the vectors never go through this keyed sort. Dropped error rows
 * go to {@link #DROPPED} for the ledger.
 *
 * <p>Which document is kept and every row written depend only on the positions, not on the order
 * the outcomes arrive in. State per key: the best position's error row and the marks of the id's
 * documents (one per duplicate); released when the key ends (BATCH: the timer at the end of the
 * key's sorted records). An id seen once (the usual case) emits nothing but its own error row.
 */
public class KeepFirstOutcomesFunction extends KeyedProcessFunction<String, DocumentOutcome, String> {
    /** Error rows of documents dropped as duplicates (not written). */
    public static final OutputTag<DocumentOutcome> DROPPED =
            new OutputTag<>("dropped-duplicate-errors", TypeInformation.of(DocumentOutcome.class));

    private transient ValueState<String> best;
    private transient ListState<DocumentOutcome> errors;
    private transient ListState<DocumentOutcome> marks;

    @Override
    public void open(OpenContext ctx) {
        best = getRuntimeContext().getState(new ValueStateDescriptor<>("best-position", Types.STRING));
        errors = getRuntimeContext().getListState(
                new ListStateDescriptor<>("error-outcomes", TypeInformation.of(DocumentOutcome.class)));
        marks = getRuntimeContext().getListState(
                new ListStateDescriptor<>("marks", TypeInformation.of(DocumentOutcome.class)));
    }

    @Override
    public void processElement(DocumentOutcome o, Context ctx, Collector<String> out) throws Exception {
        String current = best.value();
        if (current == null) {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }
        if (o.isMark()) {
            marks.add(o);
            if (current == null || DeduplicateFunction.comparePositions(o.source, current) < 0) {
                best.update(o.source);
            }
        } else {
            errors.add(o);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) throws Exception {
        String kept = best.value();
        if (kept == null) {
            return;
        }
        Set<String> failed = new HashSet<>(); // positions with an error row: they have no result to drop
        for (DocumentOutcome e : errors.get()) {
            failed.add(e.source);
            if (e.source.equals(kept)) {
                ctx.output(Outputs.ERRORS, e.error);
            } else {
                ctx.output(DROPPED, e);
            }
        }
        List<ErrorRecord> duplicates = new ArrayList<>();
        for (DocumentOutcome m : marks.get()) {
            if (!m.source.equals(kept)) {
                duplicates.add(m.duplicateRow(kept));
                if (!failed.contains(m.source)) {
                    out.collect(m.source);
                }
            }
        }
        duplicates.sort((a, b) -> DeduplicateFunction.comparePositions(a.source, b.source));
        for (ErrorRecord row : duplicates) {
            ctx.output(Outputs.ERRORS, row);
        }
        best.clear();
        errors.clear();
        marks.clear();
    }
}
