package io.github.flinkinfer.operators.incremental;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.ContentHash;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The incremental-run cache, keyed by document id: input 1 is this run's documents, input 2 the
 * rows of an earlier run. When all of a document's input has been seen (an event-time timer at
 * the end of input, which BATCH mode fires per key), a document whose text hash, model, model
 * version and settings match a complete set of earlier rows is not inferred: those rows go to
 * {@link #CARRIED} and a {@link SkippedDocument} to {@link #SKIPPED}. Every other document is
 * emitted for inference. Earlier rows of documents no longer in the corpus are dropped.
 */
public class SkipUnchangedFunction
        extends KeyedCoProcessFunction<String, Document, InferenceResult, Document> {
    public static final OutputTag<InferenceResult> CARRIED =
            new OutputTag<>("carried-over", TypeInformation.of(InferenceResult.class));
    public static final OutputTag<SkippedDocument> SKIPPED =
            new OutputTag<>("skipped-unchanged", TypeInformation.of(SkippedDocument.class));

    private final String model;
    private final String modelVersion;
    private final String settings;
    private final boolean pooled;
    private transient ValueState<Document> current;
    private transient ListState<InferenceResult> previous;

    public SkipUnchangedFunction(String model, String modelVersion, String settings, boolean pooled) {
        this.model = model;
        this.modelVersion = modelVersion;
        this.settings = settings;
        this.pooled = pooled;
    }

    @Override
    public void open(OpenContext openContext) {
        current = getRuntimeContext().getState(
                new ValueStateDescriptor<>("document", TypeInformation.of(Document.class)));
        previous = getRuntimeContext().getListState(
                new ListStateDescriptor<>("previous-rows", TypeInformation.of(InferenceResult.class)));
    }

    @Override
    public void processElement1(Document doc, Context ctx, Collector<Document> out) throws Exception {
        current.update(doc);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void processElement2(InferenceResult row, Context ctx, Collector<Document> out)
            throws Exception {
        previous.add(row);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Document> out) throws Exception {
        Document doc = current.value();
        List<InferenceResult> rows = new ArrayList<>();
        for (InferenceResult r : previous.get()) {
            rows.add(r);
        }
        current.clear();
        previous.clear();
        if (doc == null) {
            return; // deleted from the corpus: its earlier rows are not carried
        }
        String sha = ContentHash.sha256(doc.text);
        if (!reusable(rows, sha)) {
            out.collect(doc);
            return;
        }
        SkippedDocument s = new SkippedDocument();
        s.id = doc.id;
        s.source = doc.source;
        s.contentSha256 = sha;
        for (InferenceResult r : rows) {
            r.source = doc.source;
            ctx.output(CARRIED, r);
            s.rows++;
            if (r.chunk.chunkIndex >= 0 || !r.chunk.chunked()) {
                s.tokens += r.tokenCount;
            }
        }
        ctx.output(SKIPPED, s);
    }

    /** All rows computed from this content with this model and settings, and none missing. */
    boolean reusable(List<InferenceResult> rows, String sha) {
        if (rows.isEmpty()) {
            return false;
        }
        Set<Integer> chunks = new HashSet<>();
        int pools = 0;
        int count = -1;
        for (InferenceResult r : rows) {
            ChunkRef c = r.chunk;
            if (c == null || !sha.equals(c.contentSha256) || !Objects.equals(settings, c.settings)
                    || !model.equals(r.model) || !modelVersion.equals(r.modelVersion)) {
                return false;
            }
            if (!c.chunked()) {
                return rows.size() == 1;
            }
            count = c.chunkCount;
            if (c.chunkIndex < 0) {
                pools++;
            } else {
                chunks.add(c.chunkIndex);
            }
        }
        return chunks.size() == count && pools == (pooled ? 1 : 0)
                && rows.size() == count + pools;
    }
}
