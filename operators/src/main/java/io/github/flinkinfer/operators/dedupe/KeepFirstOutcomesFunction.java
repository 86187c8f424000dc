package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keep-first dedupe decided on ids and positions only (BATCH mode): on the position marks keyed
 * by a 64-bit hash of the id ({@link IdKey}), the document with the smallest source position
 * ({@link DeduplicateFunction#comparePositions}) of each id is kept, and every other document of
 * the id becomes one {@code duplicate_id} row naming the kept position ({@link Outputs#ERRORS}).
 * The main output is the position of each dropped document: {@link DuplicateOutcomeFilter} drops
 * their outcomes (results and error rows) before the writers, so no vector goes through this
 * keyed sort, and the decision never waits on inference when the marks come from a pass of their
 * own over the inputs ({@code KeepFirstAfterInference}).
 *
 * <p>The key is a hash, not the id, because BATCH sorts every mark by its key: a fixed 8-byte key
 * sorts on its normalized bytes alone, where a string key is compared record by record on its
 * serialized bytes (the sort was most of this operator's time, docs/benchmarks/). Ids whose hashes
 * collide share a key and are told apart here, so the outcome is exact whatever the hash.
 *
 * <p>Which document is kept and every row written depend only on the positions, not on the order
 * the marks arrive in. State per key: the marks of its ids; released when the key ends (BATCH:
 * the timer at the end of the key's sorted records). An id seen once (the usual case) emits
 * nothing.
 *
 * <pre>{@code
 * marks.keyBy(new KeepFirstOutcomesFunction.IdKey(), Types.LONG).process(new KeepFirstOutcomesFunction());
 * }</pre>
 */
public class KeepFirstOutcomesFunction extends KeyedProcessFunction<Long, DocumentOutcome, String> {
    private transient ListState<DocumentOutcome> outcomes;

    /** The key of an outcome: a 64-bit FNV-1a hash of its id's chars. */
    public static final class IdKey implements KeySelector<DocumentOutcome, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(DocumentOutcome o) {
            return of(o.id);
        }

        /** The hash of {@code id}. */
        public static long of(String id) {
            long h = 0xcbf29ce484222325L;
            for (int i = 0; i < id.length(); i++) {
                h = (h ^ id.charAt(i)) * 0x100000001b3L;
            }
            return h;
        }
    }

    @Override
    public void open(OpenContext ctx) {
        outcomes = getRuntimeContext().getListState(
                new ListStateDescriptor<>("outcomes", TypeInformation.of(DocumentOutcome.class)));
    }

    @Override
    public void processElement(DocumentOutcome o, Context ctx, Collector<String> out) throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE); // once per key: timers are a set
        outcomes.add(o);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) throws Exception {
        List<DocumentOutcome> all = new ArrayList<>();
        outcomes.get().forEach(all::add);
        outcomes.clear();
        if (all.size() == 1) {
            return; // an id seen once: the usual case
        }
        Map<String, List<DocumentOutcome>> byId = new TreeMap<>(); // ids of colliding hashes, in a fixed order
        for (DocumentOutcome o : all) {
            byId.computeIfAbsent(o.id, k -> new ArrayList<>(2)).add(o);
        }
        for (List<DocumentOutcome> ofId : byId.values()) {
            keepFirst(ofId, out, ctx);
        }
    }

    /** The rows of one id's marks. */
    private static void keepFirst(List<DocumentOutcome> ofId, Collector<String> out, OnTimerContext ctx) {
        String kept = ofId.get(0).source;
        for (DocumentOutcome m : ofId) {
            if (DeduplicateFunction.comparePositions(m.source, kept) < 0) {
                kept = m.source;
            }
        }
        List<ErrorRecord> duplicates = new ArrayList<>();
        for (DocumentOutcome m : ofId) {
            if (!m.source.equals(kept)) {
                duplicates.add(m.duplicateRow(kept));
                out.collect(m.source);
            }
        }
        duplicates.sort((a, b) -> DeduplicateFunction.comparePositions(a.source, b.source));
        for (ErrorRecord row : duplicates) {
            ctx.output(Outputs.ERRORS, row);
        }
    }
}
