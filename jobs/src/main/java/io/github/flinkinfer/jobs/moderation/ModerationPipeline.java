package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.jobs.EmbedOptions;
import io.github.flinkinfer.jobs.EmbeddingPipeline;
import io.github.flinkinfer.jobs.io.FileInputs;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.kafka.KafkaInputs;
import io.github.flinkinfer.jobs.kafka.KafkaOutputs;
import io.github.flinkinfer.jobs.kafka.KafkaPreflight;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.runtime.Classification;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Builds the moderation job's dataflow: the embedding job's source and shared middle ({@link
 * EmbeddingPipeline#infer}) with a classifier, then a verdict per item:
 *
 * <pre>
 *  source ─▶ parse ─▶ dedupe ─▶ tokenize ─▶ batch + infer ─▶ classify ─▶ results/  (every item)
 *                                                                  └──▶ flagged/  (threshold crossed)
 *  with --chunk-size, tokenize cuts token windows and classify is followed by a keyed step that
 *  emits one verdict per document, its worst window's (DocVerdictFunction)
 *  metrics/ and errors/ as in the embedding job; with --kafka-output-topic every verdict also goes
 *  to that topic (JSON, keyed by id, "flagged" in the value), with --kafka-errors-topic the errors
 * </pre>
 */
public final class ModerationPipeline {
    public static final String RESULTS_DIR = "results";
    public static final String FLAGGED_DIR = "flagged";

    private ModerationPipeline() {}

    /** Adds the whole job to {@code env}, reading and writing per {@code options}. */
    public static void build(
            StreamExecutionEnvironment env, EmbedOptions options, String runId, ModelRuntimeFactory model,
            DocVerdictFunction.Policy chunkVerdict) {
        if (options.kafka.readsKafka() || options.kafka.writesKafka()) {
            KafkaPreflight.check(options, runId);
        }
        ParsedInput input = options.kafka.readsKafka()
                ? KafkaInputs.read(env, options) : FileInputs.read(env, options);
        List<DataStream<ErrorRecord>> errors = new ArrayList<>(input.errors());
        SingleOutputStreamOperator<InferenceResult> scored =
                EmbeddingPipeline.infer(input.documents(), options, runId, model, errors);
        DataStream<ModerationResult> verdicts = scored
                .map(new Classify(model.card().classification))
                .returns(TypeInformation.of(ModerationResult.class))
                .name("classify")
                .uid("classify");
        if (options.index.chunking().enabled()) { // one verdict per document, by its worst window
            verdicts = verdicts
                    .keyBy(r -> r.docId != null ? r.docId : r.id, org.apache.flink.api.common.typeinfo.Types.STRING)
                    .process(new DocVerdictFunction(model.card().classification, chunkVerdict))
                    .returns(TypeInformation.of(ModerationResult.class))
                    .name("document-verdicts")
                    .uid("document-verdicts");
        }
        DataStream<ModerationResult> flagged = verdicts
                .filter(r -> r.flagged)
                .name("flagged")
                .uid("flagged");
        write(verdicts, options, runId, RESULTS_DIR);
        write(flagged, options, runId, FLAGGED_DIR);
        KafkaOutputs.write(verdicts, options, runId, "verdicts", r -> r.id);
        FileOutputs.writeMetrics(scored.getSideOutput(Outputs.BATCH_METRICS), options, runId);
        DataStream<ErrorRecord> allErrors = errors.get(0);
        for (DataStream<ErrorRecord> e : errors.subList(1, errors.size())) {
            allErrors = allErrors.union(e);
        }
        FileOutputs.writeErrors(allErrors, options, runId);
        KafkaOutputs.writeErrors(allErrors, options, runId);
        EmbeddingPipeline.enforceErrorBudget(allErrors, scored.getSideOutput(Outputs.BATCH_METRICS), options);
    }

    private static void write(DataStream<ModerationResult> results, EmbedOptions o, String runId, String dir) {
        if (o.outputFormats.contains("parquet")) {
            results.sinkTo(FileSink.forBulkFormat(new Path(o.output, dir), new ModerationParquetWriter())
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .withOutputFileConfig(partNames(runId, ".parquet"))
                            .build())
                    .name("write-" + dir + "-parquet")
                    .uid("write-" + dir + "-parquet");
        }
        if (o.outputFormats.contains("jsonl")) {
            results.sinkTo(FileSink.forRowFormat(new Path(o.output, dir), new ModerationJsonEncoder())
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .withOutputFileConfig(partNames(runId, ".jsonl"))
                            .build())
                    .name("write-" + dir + "-jsonl")
                    .uid("write-" + dir + "-jsonl");
        }
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
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
