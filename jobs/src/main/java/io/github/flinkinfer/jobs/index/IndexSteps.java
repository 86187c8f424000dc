package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.WindowOutcome;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.incremental.SkipUnchangedFunction;
import io.github.flinkinfer.operators.incremental.SkippedDocument;
import io.github.flinkinfer.operators.pool.DocPoolingFunction;
import io.github.flinkinfer.operators.pool.DocumentErrorsFunction;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dataflow steps of search-index and chunked runs around the shared middle: the
 * incremental-run cache lookup before tokenization (keyed by document id, joined with the earlier
 * run's rows), doc-level pooling after inference (the embedding kind's post-process) and one error
 * row per document with a failed window (both keyed by document id). Each returns its streams.
 */
public final class IndexSteps {
    private static final Logger LOG = LoggerFactory.getLogger(IndexSteps.class);

    private IndexSteps() {}

    /**
     * What {@link #skipUnchanged} leaves: the documents to infer, the earlier run's rows carried
     * over for the others (none when not incremental) and the record of those skipped (null when
     * not incremental).
     */
    public record Unchanged(DataStream<Document> changed, List<DataStream<InferenceResult>> carried,
            DataStream<SkippedDocument> skipped) {}

    /**
     * With {@code --previous-output}: documents whose content, model and settings match the
     * earlier run are dropped here and their rows carried over; the rest continue.
     */
    public static Unchanged skipUnchanged(
            DataStream<Document> docs, InferenceConfig config, ModelRuntimeFactory model, Accounting accounting) {
        if (!config.incremental()) {
            return new Unchanged(docs, List.of(), null);
        }
        String runId = PreviousOutput.resolveRunId(config.previousOutput(), config.previousRunId());
        List<Path> files = runId == null ? List.of() : PreviousOutput.files(config.previousOutput(), runId);
        if (files.isEmpty()) {
            LOG.warn("Previous run {} in {} has no Parquet embeddings: every document is inferred",
                    runId, config.previousOutput());
            return new Unchanged(docs, List.of(), null);
        }
        LOG.info("Reusing unchanged rows of run {} ({} files)", runId, files.size());
        ModelCard card = model.card();
        Chunking chunking = config.chunking();
        String settings = chunking.fingerprint(model.options().effectiveMaxLength(card), config.overlong());
        DataStream<InferenceResult> previous = PreviousOutput.read(docs.getExecutionEnvironment(), files);
        SingleOutputStreamOperator<Document> changed =
                docs.keyBy(d -> d.id, Types.STRING)
                        .connect(previous.keyBy(r -> r.chunk.docId, Types.STRING))
                        .process(new SkipUnchangedFunction(card.name, card.version, settings,
                                chunking.pooling() != Chunking.Pooling.NONE))
                        .returns(TypeInformation.of(Document.class))
                        .name("skip-unchanged")
                        .uid("skip-unchanged");
        DataStream<InferenceResult> carried = accounting.tally(
                changed.getSideOutput(SkipUnchangedFunction.CARRIED), "carried", (l, r) -> l.addExtraRow());
        DataStream<SkippedDocument> skipped = accounting.tally(
                changed.getSideOutput(SkipUnchangedFunction.SKIPPED), "skipped", (l, d) -> l.addSkipped(d.tokens));
        return new Unchanged(changed, List.of(carried), skipped);
    }

    /**
     * The inference errors of {@code results}; with chunking, plus one {@code window_failed} row per
     * document with failed windows ({@link Outputs#WINDOW_FAILURES}, folded by {@link
     * DocumentErrorsFunction}), so the errors output counts each input document once.
     */
    public static DataStream<ErrorRecord> documentErrors(
            SingleOutputStreamOperator<InferenceResult> results, Chunking chunking) {
        DataStream<ErrorRecord> errors = results.getSideOutput(Outputs.ERRORS);
        if (!chunking.enabled()) {
            return errors;
        }
        TypeInformation<WindowOutcome> type = TypeInformation.of(WindowOutcome.class);
        DataStream<WindowOutcome> windows = results
                .filter(r -> r.chunk != null && r.chunk.isChunk()).name("window-successes")
                .map(WindowOutcome::succeeded).returns(type).name("window-outcomes")
                .union(results.getSideOutput(Outputs.WINDOW_FAILURES));
        DataStream<ErrorRecord> documents = windows
                .keyBy(WindowOutcome::docId, Types.STRING)
                .process(new DocumentErrorsFunction())
                .returns(TypeInformation.of(ErrorRecord.class))
                .name("document-errors")
                .uid("document-errors");
        return errors.union(documents);
    }

    /**
     * With {@code --doc-pooling mean}: one doc-level row per fully embedded document of the model's
     * rows {@code results} (the embedding kind's post-process); null without pooling.
     */
    public static DataStream<InferenceResult> pool(DataStream<InferenceResult> results, Chunking chunking,
            Accounting accounting) {
        if (chunking.pooling() == Chunking.Pooling.NONE) {
            return null;
        }
        return accounting.tally(results.keyBy(r -> r.chunk.docId, Types.STRING)
                .process(new DocPoolingFunction())
                .returns(TypeInformation.of(InferenceResult.class))
                .name("pool-documents")
                .uid("pool-documents"), "pooled", (l, r) -> l.addExtraRow());
    }
}
