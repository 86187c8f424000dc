package io.github.flinkinfer.operators;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Drops the results of documents that {@link KeepFirstOutcomesFunction} dropped as duplicates:
 * the broadcast input is their positions, the other input the results, which pass on unchanged
 * unless their position is one of them. In BATCH mode Flink reads the broadcast input to its end
 * before the first result (its batch broadcast operator selects that input first), so the
 * results need neither a key nor a sort: they reach this filter over a forward exchange, in the
 * order inference wrote them.
 *
 * <p>Memory: every subtask receives every dropped position (broadcast) and holds those its own
 * results have not matched yet: an exact set of strings, about 130 bytes per duplicate with a
 * result for 50-character positions, none for a corpus without duplicate ids (docs/errors.md).
 */
public class DuplicateResultFilter extends BroadcastProcessFunction<InferenceResult, String, InferenceResult> {
    /** The broadcast descriptor Flink asks for; the positions are held in {@link #dropped}, not in it. */
    public static final MapStateDescriptor<String, Boolean> POSITIONS =
            new MapStateDescriptor<>("dropped-duplicate-positions", Types.STRING, Types.BOOLEAN);
    /** Results of documents dropped as duplicates (not written), for the ledger. */
    public static final OutputTag<InferenceResult> DROPPED =
            new OutputTag<>("dropped-duplicate-results", TypeInformation.of(InferenceResult.class));

    private transient Set<String> dropped;

    @Override
    public void processBroadcastElement(String position, Context ctx, Collector<InferenceResult> out) {
        positions().add(position);
    }

    @Override
    public void processElement(InferenceResult r, ReadOnlyContext ctx, Collector<InferenceResult> out) {
        if (dropped != null && dropped.remove(r.source)) {
            ctx.output(DROPPED, r);
        } else {
            out.collect(r);
        }
    }

    private Set<String> positions() {
        if (dropped == null) {
            dropped = new HashSet<>();
        }
        return dropped;
    }
}
