package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.index.IndexOutputs;
import io.github.flinkinfer.jobs.index.IndexSteps;
import io.github.flinkinfer.jobs.io.FileInputs;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.kafka.KafkaInputs;
import io.github.flinkinfer.jobs.kafka.KafkaOutputs;
import io.github.flinkinfer.jobs.kafka.KafkaPreflight;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Exchanges;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.dedupe.DeduplicateFunction;
import io.github.flinkinfer.operators.dedupe.DocumentOutcome;
import io.github.flinkinfer.operators.dedupe.PositionMarker;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.incremental.SkippedDocument;
import io.github.flinkinfer.operators.ledger.RunLedger;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.run.BatchInferenceOperator;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.streaming.runtime.partitioner.RescalePartitioner;

/**
 * Builds every run's dataflow on an environment, the same for every {@link TaskKind}; the kind
 * supplies its pre-process, batching policy, post-process and writers:
 *
 * <pre>
 *  read ─▶ dedupe ids ─▶ pre-process ─▶ batch + run ─▶ post-process ─▶ write   (the kind's result)
 *   │          │              │              ├───────────────────────────────▶ metrics (one row per batch)
 *   └──────────┴──────────────┴──────────────┴───────────────────────────────▶ errors  (one row per failed input)
 * </pre>
 *
 * In BATCH mode with {@code --duplicates keep-first} (the default) and no incremental run or
 * chunking, the duplicates are decided on ids and positions alone ({@link
 * KeepFirstAfterInference}), never by sorting the documents: from an id pass, a second read of the
 * files or of the Kafka range fixed before submission, whose dropped positions a filter before
 * tokenize drops (source ─▶ parse ─▶ drop duplicates ─▶ tokenize ─▶ batch + infer ─▶ write);
 * a compacted topic, read once, is marked on its way to tokenize and its results are filtered
 * after inference.
 *
 * Tokenize and batch+infer are chained in one task, so tokens never cross the network, unless
 * {@code --tokenize-parallelism} gives dedupe + tokenize their own task ({@link StageParallelism}). Sources
 * and sinks are chosen from the run's {@link RunSpec}; the middle is {@link #infer}, which returns
 * its streams and ledger tallies as one {@link Inferred}. Each stage gets its own config record of
 * the spec ({@link InputConfig}, {@link InferenceConfig}, {@link OutputConfig}, {@link
 * io.github.flinkinfer.operators.ledger.ErrorBudget}).
 *
 * <pre>{@code
 * InferencePipeline.build(env, spec, ModelRuntimeFactory.onnx(card, spec.runtime()), TaskKinds.named("embed"));
 * }</pre>
 */
public final class InferencePipeline {
    private InferencePipeline() {}

    /** Adds the whole job of {@code kind} to {@code env}, reading and writing per {@code spec}. */
    public static <R> void build(StreamExecutionEnvironment env, RunSpec spec, ModelRuntimeFactory model,
            TaskKind<R> kind) {
        String runId = spec.runId();
        InputConfig in = spec.input();
        OutputConfig out = spec.output();
        if (in.kafka().readsKafka() || in.kafka().writesKafka()) {
            KafkaPreflight.check(in.kafka(), runId);
        }
        ParsedInput input = in.readsKafka() ? KafkaInputs.read(env, in) : FileInputs.read(env, in); // read
        InferenceConfig config = spec.inference();
        Inferred inferred = infer(input, config, runId, model, kind); // pre-process, batch + run
        Accounting ledger = inferred.ledger();
        ledger.tally(input.documents(), "parsed", (l, d) -> l.addParsed(d.source));
        DataStream<R> results = kind.postProcess(inferred, config, model.card()); // post-process
        kind.write(results, out, ledger); // write
        if (inferred.skipped() != null) {
            IndexOutputs.writeSkipped(inferred.skipped(), out);
        }
        FileOutputs.writeMetrics(inferred.metrics(), out, config.pipelinedToInference() || !config.batchMode());
        List<DataStream<ErrorRecord>> errors = new ArrayList<>(input.errors());
        errors.addAll(inferred.errors());
        DataStream<ErrorRecord> allErrors = union(errors, inferred.pipelinedThrough());
        FileOutputs.writeErrors(allErrors, out);
        KafkaOutputs.writeErrors(allErrors, out);
        ledger.tally(allErrors, "errors", RunLedger::addError);
        var contract = spec.workload();
        ledger.merge(spec.errorBudget(), RunOutput.ledgerPath(new Path(out.directory()), runId).toString(),
                contract == null ? null : contract.latencyMaxItemMs(), inferred.pipelinedThrough());
    }

    /**
     * What the shared middle hands the kind's post-process and the writers.
     *
     * @param results the kept rows of this run's model calls (one per successful model input)
     * @param modelOutputs the batch-and-infer operator itself (before a dedupe after inference):
     *     keyed post-processing by document reads it, as doc pooling does
     * @param carried rows an incremental run carried over from the earlier run (else empty)
     * @param skipped the record of documents an incremental run skipped (else null)
     * @param metrics one row per batch
     * @param errors each stage's error rows, in stage order
     * @param ledger the tallies so far; post-process and the writers add theirs, then {@link
     *     Accounting#merge} writes the ledger
     * @param pipelinedThrough BATCH where every stage from the readers to the writers is joined by
     *     pipelined exchanges (keep-first with its id pass, or no dedupe; neither incremental nor
     *     chunked: no keyed exchange): the error rows and the ledger's tallies may then reach their
     *     one task over pipelined exchanges too, which keeps a blocking exchange out of the region
     *     ({@code PipelinedRegionsTest})
     */
    public record Inferred(
            DataStream<InferenceResult> results,
            DataStream<InferenceResult> modelOutputs,
            List<DataStream<InferenceResult>> carried,
            DataStream<SkippedDocument> skipped,
            DataStream<BatchMetrics> metrics,
            List<DataStream<ErrorRecord>> errors,
            Accounting ledger,
            boolean pipelinedThrough) {}

    /**
     * The shared middle of every job: dedupe ids, skip unchanged documents (incremental runs), the
     * kind's pre-process, batch and run. Where {@link KeepFirstAfterInference} applies (BATCH
     * keep-first), the dedupe is decided on ids and positions: on a second read of {@code input}
     * where it can be read twice (files, a Kafka backfill's fixed range), dropping the duplicates
     * before tokenize; on the way to tokenize otherwise (a compacted topic), dropping their
     * outcomes after inference.
     */
    public static Inferred infer(
            ParsedInput input,
            InferenceConfig config,
            String runId,
            ModelRuntimeFactory model,
            TaskKind<?> kind) {
        DataStream<Document> docs = input.documents();
        List<DataStream<ErrorRecord>> errors = new ArrayList<>();
        Accounting accounting = new Accounting();
        DataStream<Document> unique;
        boolean onIds = KeepFirstAfterInference.applies(config);
        boolean idPass = onIds && input.readableTwice();
        boolean dedupeAfter = onIds && !idPass;
        DataStream<DocumentOutcome> marks = null;
        if (idPass) { // decided on a second read: the duplicates dropped before tokenize
            unique = KeepFirstAfterInference.beforeTokenize(input, config, errors);
        } else if (dedupeAfter) { // read once: the marks on the way to tokenize
            SingleOutputStreamOperator<Document> marked = StageParallelism.pipelinedRebalance(docs)
                    .process(new PositionMarker())
                    .name("mark-positions")
                    .uid("mark-positions");
            StageParallelism.ofTokenize(marked, config); // chained with tokenize
            marks = marked.getSideOutput(PositionMarker.MARKS);
            unique = marked;
        } else if (config.duplicates().keepsFirst()) {
            SingleOutputStreamOperator<Document> deduped =
                    docs.keyBy(d -> d.id, Types.STRING)
                            .process(new DeduplicateFunction(config.batchMode()))
                            .name("deduplicate-ids")
                            .uid("deduplicate-ids");
            StageParallelism.ofTokenize(deduped, config); // chained with tokenize
            errors.add(deduped.getSideOutput(Outputs.ERRORS));
            unique = deduped;
        } else if (config.pipelinedToInference()) { // ALLOW: nothing to wait for
            unique = StageParallelism.pipelinedRebalance(docs);
        } else {
            unique = docs.rebalance();
        }
        IndexSteps.Unchanged unchanged = IndexSteps.skipUnchanged(unique, config, model, accounting);
        SingleOutputStreamOperator<TokenizedDocument> tokens =
                unchanged.changed().process(kind.preProcess(model, config))
                        .name("tokenize")
                        .uid("tokenize");
        StageParallelism.ofTokenize(tokens, config);
        accounting.tally(tokens, "model-inputs",
                (l, t) -> l.addItem(t.chunk == null || t.chunk.chunkIndex <= 0));
        SingleOutputStreamOperator<InferenceResult> results =
                StageParallelism.toInference(tokens, config).transform(
                                "batch-and-infer",
                                TypeInformation.of(InferenceResult.class),
                                BatchInferenceOperator.builder(model, kind.batching(config), runId)
                                        .cost(config.cost())
                                        .qualityGate(config.qualityGate())
                                        .overlap(config.overlap())
                                        .build())
                        .uid("batch-and-infer");
        DataStream<InferenceResult> written = results;
        if (dedupeAfter) {
            written = KeepFirstAfterInference.dedupe(marks, tokens.getSideOutput(Outputs.ERRORS), results,
                    errors, accounting, config);
        } else {
            errors.add(tokens.getSideOutput(Outputs.ERRORS));
            errors.add(IndexSteps.documentErrors(results, config.chunking()));
            written = StageParallelism.toWriters(results, config);
        }
        accounting.tally(results.getSideOutput(Outputs.BATCH_METRICS), "batches", RunLedger::addBatch,
                m -> m.items);
        if (config.chunking().enabled()) { // failed windows are folded into one row per document
            accounting.tally(results.getSideOutput(Outputs.WINDOW_FAILURES), "window-failures",
                    (l, w) -> l.addFailedWindow());
        }
        boolean pipelinedThrough = config.pipelinedToInference() && !config.incremental()
                && !config.chunking().enabled() && (idPass || config.duplicates() == DuplicatePolicy.ALLOW);
        return new Inferred(written, results, unchanged.carried(), unchanged.skipped(),
                results.getSideOutput(Outputs.BATCH_METRICS), List.copyOf(errors), accounting, pipelinedThrough);
    }

    /**
     * Every stage's error rows as one stream, read by one task ({@code collect-errors}) to which the
     * error writers and the ledger's tally are chained: each of them reading the union itself would
     * be a task of its own, P more subtasks to deploy in the job's tail (BATCH deploys them once
     * every stage before has finished). With {@code pipelined} the rows reach it over pipelined
     * exchanges: it runs beside the stages, and their blocking partitions' sort buffers are not
     * needed.
     */
    static DataStream<ErrorRecord> union(List<DataStream<ErrorRecord>> errors, boolean pipelined) {
        int parallelism = errors.get(0).getExecutionEnvironment().getParallelism();
        DataStream<ErrorRecord> all = null;
        for (DataStream<ErrorRecord> e : errors) {
            // another parallelism: rescaled, pointwise (error rows need no spread; all-to-all would
            // cost a TaskManager T x P channels' buffers for a handful of rows)
            DataStream<ErrorRecord> in = !pipelined ? e : Exchanges.pipelined(e,
                    e.getParallelism() == parallelism ? new ForwardPartitioner<>() : new RescalePartitioner<>());
            all = all == null ? in : all.union(in);
        }
        return all.map(e -> e)
                .returns(TypeInformation.of(ErrorRecord.class))
                .name("collect-errors")
                .uid("collect-errors");
    }
}
