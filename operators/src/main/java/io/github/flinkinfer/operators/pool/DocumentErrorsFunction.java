package io.github.flinkinfer.operators.pool;

import io.github.flinkinfer.operators.WindowOutcome;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.TreeSet;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by document id after inference in a chunked run: counts a document's windows as they
 * succeed or fail and, once all have come out and any failed, emits one document-level {@code
 * infer/window_failed} error row (id = the document id, its position, how many windows failed
 * and why). The failed windows ({@link io.github.flinkinfer.operators.Outputs#WINDOW_FAILURES})
 * are folded into it, so the errors output holds the document once; a document whose windows all succeeded emits nothing here. Its state is one
 * small record per document still in flight.
 */
public class DocumentErrorsFunction extends KeyedProcessFunction<String, WindowOutcome, ErrorRecord> {
    private static final long serialVersionUID = 1L;

    private transient ValueState<Tally> tally;

    /** One document's windows so far. */
    public static class Tally {
        public int seen;
        public int failed;
        /** The failed windows' reason codes, sorted and comma-separated. */
        public String reasons;
        /** The failed window with the smallest index, and that index. */
        public ErrorRecord first;
        public int firstIndex;

        public Tally() {}
    }

    @Override
    public void open(OpenContext openContext) {
        tally = getRuntimeContext().getState(
                new ValueStateDescriptor<>("document-windows-tally", TypeInformation.of(Tally.class)));
    }

    @Override
    public void processElement(WindowOutcome window, Context ctx, Collector<ErrorRecord> out) throws Exception {
        Tally t = tally.value();
        if (t == null) {
            t = new Tally();
        }
        t.seen++;
        if (window.error != null) {
            t.failed++;
            TreeSet<String> reasons = new TreeSet<>();
            if (t.reasons != null) {
                reasons.addAll(java.util.List.of(t.reasons.split(",")));
            }
            reasons.add(window.error.reason);
            t.reasons = String.join(",", reasons);
            if (t.first == null || window.chunk.chunkIndex < t.firstIndex) {
                t.first = window.error;
                t.firstIndex = window.chunk.chunkIndex;
            }
        }
        if (t.seen < window.chunk.chunkCount) {
            tally.update(t);
            return;
        }
        tally.clear();
        if (t.failed > 0) {
            out.collect(documentError(window, t));
        }
    }

    static ErrorRecord documentError(WindowOutcome anyWindow, Tally t) {
        ChunkRef c = anyWindow.chunk;
        ErrorRecord first = t.first;
        ErrorRecord e = ErrorReason.WINDOW_FAILED.record(c.docId, anyWindow.source,
                t.failed + " of " + c.chunkCount + " windows failed (" + t.reasons + "); first: window "
                        + t.firstIndex + ", " + first.stage + "/" + first.reason + ": " + first.message,
                first.attempt);
        return e.withInput(c); // the document's length and sha256, as for other rows
    }
}
