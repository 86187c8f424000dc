package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.kafka.KafkaOutputs;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The {@code moderate} kind (classification): post-process turns the classifier's scores into a
 * verdict per item, written to {@code results/} (every item) and {@code flagged/} (threshold
 * crossed), and to Kafka when asked:
 *
 * <pre>
 *  ... batch + infer ─▶ classify ─▶ results/  (every item)      post-process, then write
 *                              └──▶ flagged/  (threshold crossed)
 *  with --chunk-size, tokenize cuts token windows and classify is followed by a keyed step that
 *  emits one verdict per document (DocVerdictFunction, --chunk-verdict)
 * </pre>
 */
public final class ModerationTask implements TaskKind<ModerationResult> {
    public static final String RESULTS_DIR = "results";
    public static final String FLAGGED_DIR = "flagged";

    private final DocVerdictFunction.Policy chunkVerdict;

    /** With the default {@code --chunk-verdict MEAN} (the registry's instance, {@code TaskKinds}). */
    public ModerationTask() {
        this(DocVerdictFunction.Policy.MEAN);
    }

    public ModerationTask(DocVerdictFunction.Policy chunkVerdict) {
        this.chunkVerdict = chunkVerdict;
    }

    @Override
    public String name() {
        return "moderate";
    }

    @Override
    public ModelTask modelTask() {
        return ModelTask.CLASSIFICATION;
    }

    @Override
    public void validate(RunSpec spec) {
        if (spec.inference().incremental()
                || spec.inference().chunking().pooling() != Chunking.Pooling.NONE) {
            throw new IllegalArgumentException("--previous-output and --doc-pooling are embedding-job"
                    + " options; moderate judges a chunked document by its windows (--chunk-verdict)");
        }
    }

    /** Classify: the card's labels and thresholds on each item's scores; with chunking, one verdict per document. */
    @Override
    public DataStream<ModerationResult> postProcess(InferencePipeline.Inferred inferred, InferenceConfig config,
            ModelCard card) {
        DataStream<InferenceResult> scored = inferred.results();
        SingleOutputStreamOperator<ModerationResult> classified = scored
                .map(new Classify(card.classification))
                .returns(TypeInformation.of(ModerationResult.class))
                .name("classify")
                .uid("classify");
        SameParallelism.as(classified.getTransformation(), scored); // chained to the result filter
        DataStream<ModerationResult> verdicts = classified;
        if (config.chunking().enabled()) { // one verdict per document from its windows
            verdicts = verdicts
                    .keyBy(r -> r.docId != null ? r.docId : r.id, Types.STRING)
                    .process(new DocVerdictFunction(card.classification, chunkVerdict))
                    .returns(TypeInformation.of(ModerationResult.class))
                    .name("document-verdicts")
                    .uid("document-verdicts");
        }
        return verdicts;
    }

    /** Every verdict to {@code results/}, the flagged ones to {@code flagged/}, and to Kafka when asked. */
    @Override
    public void write(DataStream<ModerationResult> verdicts, OutputConfig out, Accounting ledger) {
        SingleOutputStreamOperator<ModerationResult> flagged = verdicts
                .filter(r -> r.flagged)
                .name("flagged")
                .uid("flagged");
        SameParallelism.as(flagged.getTransformation(), verdicts);
        write(verdicts, out, RESULTS_DIR);
        write(flagged, out, FLAGGED_DIR);
        KafkaOutputs.write(verdicts, out, "verdicts", r -> r.id);
    }

    private static void write(DataStream<ModerationResult> results, OutputConfig out, String dir) {
        for (OutputFormat format : out.formats()) {
            switch (format) {
                case PARQUET -> FileOutputs.write(results, out, dir, format, new ModerationParquetWriter());
                case JSONL -> FileOutputs.write(results, out, dir, format, new ModerationJsonEncoder());
                default -> throw new IllegalArgumentException("moderate cannot write " + format);
            }
        }
    }

    /** Scores → verdict with the card's labels and thresholds. */
    static final class Classify implements MapFunction<InferenceResult, ModerationResult> {
        private static final long serialVersionUID = 1L;
        private final Classification classification;

        Classify(Classification classification) {
            this.classification = classification;
        }

        @Override
        public ModerationResult map(InferenceResult r) {
            return ModerationResult.of(r, classification);
        }
    }
}
