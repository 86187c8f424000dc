package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Duplicate-id policy, applied within a run on a stream keyed by id: one document per id goes
 * on, the others go to {@link Outputs#ERRORS} with reason {@code duplicate_id}.
 *
 * <p>Which one is kept must not depend on scheduling. In BATCH mode (records of a key arrive
 * together, timers fire when the key ends) the kept document is the one with the smallest source
 * position ({@code <path>@<offset>} or {@code <path>:<line>}, compared by the file's whole path
 * then the number), i.e. the first in the corpus; since positions name whole paths, same-named files in two directories
 * never tie. In STREAMING mode the first to arrive is kept, so nothing is held back.
 */
public class DeduplicateFunction extends KeyedProcessFunction<String, Document, Document> {
    private final boolean holdUntilKeyEnds;
    private transient ValueState<Document> kept;

    /** @param batchMode true in BATCH runtime mode (deterministic keep-first-in-corpus) */
    public DeduplicateFunction(boolean batchMode) {
        this.holdUntilKeyEnds = batchMode;
    }

    @Override
    public void open(OpenContext ctx) {
        kept = getRuntimeContext().getState(
                new ValueStateDescriptor<>("kept", TypeInformation.of(Document.class)));
    }

    @Override
    public void processElement(Document doc, Context ctx, Collector<Document> out) throws Exception {
        Document current = kept.value();
        if (current == null) {
            if (holdUntilKeyEnds) {
                kept.update(doc);
                ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            } else {
                kept.update(new Document(doc.id, null, doc.source)); // a marker, not the text
                out.collect(doc);
            }
        } else if (holdUntilKeyEnds && comparePositions(doc.source, current.source) < 0) {
            reject(current, doc.source, ctx);
            kept.update(doc);
        } else {
            reject(doc, current.source, ctx);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Document> out) throws Exception {
        Document doc = kept.value();
        if (doc != null) {
            out.collect(doc);
            kept.clear();
        }
    }

    private static void reject(Document dup, String keptAt, Context ctx) {
        ctx.output(Outputs.ERRORS,
                ErrorRecord.of(dup.id, dup.source, ErrorReason.DUPLICATE_ID,
                        "the record at " + keptAt + " has the same id and is kept", 1)
                        .withInput(dup.text));
    }

    /**
     * Orders {@code <path>:<line>} and {@code <path>@<offset>} positions (a file has one form) by
     * path, then numerically by line or byte offset: file order either way.
     */
    static int comparePositions(String a, String b) {
        int ia = a == null ? -1 : Math.max(a.lastIndexOf(':'), a.lastIndexOf('@'));
        int ib = b == null ? -1 : Math.max(b.lastIndexOf(':'), b.lastIndexOf('@'));
        if (ia < 0 || ib < 0) {
            return String.valueOf(a).compareTo(String.valueOf(b));
        }
        int byFile = a.substring(0, ia).compareTo(b.substring(0, ib));
        if (byFile != 0) {
            return byFile;
        }
        try {
            return Long.compare(Long.parseLong(a.substring(ia + 1)), Long.parseLong(b.substring(ib + 1)));
        } catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }
}
