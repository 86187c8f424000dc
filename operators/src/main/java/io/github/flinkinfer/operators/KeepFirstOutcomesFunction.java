package io.github.flinkinfer.operators;

import java.util.ArrayList;
import java.util.List;
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
 * Keep-first dedupe after inference (BATCH mode): on the outcomes keyed by id, those of the
 * document with the smallest source position ({@link DeduplicateFunction#comparePositions}) go
 * on, results as the main output and error rows to {@link Outputs#ERRORS}; every other document
 * of the id becomes one {@code duplicate_id} row naming the kept position, and its dropped
 * outcomes go to {@link #DROPPED} for the ledger. Nothing before inference waits for the corpus;
 * the price is that duplicates are tokenized and inferred.
 *
 * <p>Which document is kept and every row it writes depend only on the positions, not on the
 * order the outcomes arrive in. State per key: the best position's outcomes and the marks of the
 * id's documents (one per duplicate); released when the key ends (BATCH: the timer at the end of
 * the key's sorted records).
 */
public class KeepFirstOutcomesFunction extends KeyedProcessFunction<String, DocumentOutcome, InferenceResult> {
    /** Outcomes of documents dropped as duplicates (their result or error rows are not written). */
    public static final OutputTag<DocumentOutcome> DROPPED =
            new OutputTag<>("dropped-duplicates", TypeInformation.of(DocumentOutcome.class));

    private transient ValueState<String> best;
    private transient ListState<DocumentOutcome> bestOutcomes;
    private transient ListState<DocumentOutcome> marks;

    @Override
    public void open(OpenContext ctx) {
        best = getRuntimeContext().getState(new ValueStateDescriptor<>("best-position", Types.STRING));
        bestOutcomes = getRuntimeContext().getListState(
                new ListStateDescriptor<>("best-outcomes", TypeInformation.of(DocumentOutcome.class)));
        marks = getRuntimeContext().getListState(
                new ListStateDescriptor<>("marks", TypeInformation.of(DocumentOutcome.class)));
    }

    @Override
    public void processElement(DocumentOutcome o, Context ctx, Collector<InferenceResult> out) throws Exception {
        String current = best.value();
        if (current == null) {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }
        if (o.isMark()) {
            marks.add(o);
        }
        int cmp = current == null ? -1 : DeduplicateFunction.comparePositions(o.source, current);
        if (cmp < 0) { // a new first document: the outcomes held so far are a duplicate's
            for (DocumentOutcome dropped : bestOutcomes.get()) {
                ctx.output(DROPPED, dropped);
            }
            bestOutcomes.clear();
            best.update(o.source);
        }
        if (cmp <= 0) {
            if (!o.isMark()) {
                bestOutcomes.add(o);
            }
        } else if (!o.isMark()) {
            ctx.output(DROPPED, o);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<InferenceResult> out) throws Exception {
        String kept = best.value();
        if (kept == null) {
            return;
        }
        for (DocumentOutcome o : bestOutcomes.get()) {
            if (o.result != null) {
                out.collect(o.result);
            } else {
                ctx.output(Outputs.ERRORS, o.error);
            }
        }
        List<ErrorRecord> duplicates = new ArrayList<>();
        for (DocumentOutcome m : marks.get()) {
            if (!m.source.equals(kept)) {
                ErrorRecord row = m.duplicateRow;
                row.message = "the record at " + kept + " has the same id and is kept";
                duplicates.add(row);
            }
        }
        duplicates.sort((a, b) -> DeduplicateFunction.comparePositions(a.source, b.source));
        for (ErrorRecord row : duplicates) {
            ctx.output(Outputs.ERRORS, row);
        }
        best.clear();
        bestOutcomes.clear();
        marks.clear();
    }
}
