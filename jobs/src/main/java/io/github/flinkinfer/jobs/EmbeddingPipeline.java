package io.github.flinkinfer.jobs;

import io.github.flinkinfer.jobs.io.EmbeddingParquetWriter;
import io.github.flinkinfer.jobs.io.InputFormat;
import io.github.flinkinfer.jobs.io.JsonLinesEncoder;
import io.github.flinkinfer.jobs.io.LineFormat;
import io.github.flinkinfer.jobs.io.ParquetInput;
import io.github.flinkinfer.jobs.io.RawLine;
import io.github.flinkinfer.jobs.io.RecordParser;
import io.github.flinkinfer.operators.BatchInferenceOperator;
import io.github.flinkinfer.operators.BatchMetrics;
import io.github.flinkinfer.operators.DeduplicateFunction;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizeFunction;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.RuntimeOptions;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Builds the embedding job's dataflow on an environment:
 *
 * <pre>
 *  files ─▶ parse ─▶ dedupe ids ─▶ tokenize ─▶ batch + infer ─▶ embeddings/ (Parquet, JSONL)
 *             │                      │              ├──────────▶ metrics/   (one row per batch)
 *             └──────────────────────┴──────────────┴──────────▶ errors/    (one row per failed input)
 * </pre>
 *
 * Tokenize and batch+infer are chained in one task, so tokens never cross the network.
 */
public final class EmbeddingPipeline {
    public static final String EMBEDDINGS_DIR = "embeddings";
    public static final String METRICS_DIR = "metrics";
    public static final String ERRORS_DIR = "errors";

    private EmbeddingPipeline() {}

    /** Adds the whole job to {@code env}, reading and writing per {@code options}. */
    public static void build(StreamExecutionEnvironment env, EmbedOptions options, String runId) {
        build(env, options, runId, ModelRuntimeFactory.onnx(options.modelCard(), options.runtimeOptions()));
    }

    /** Same, with the model runtime supplied (tests inject faults through it). */
    public static void build(
            StreamExecutionEnvironment env,
            EmbedOptions options,
            String runId,
            ModelRuntimeFactory model) {
        ModelCard card = model.card();
        RuntimeOptions runtime = model.options();

        List<DataStream<ErrorRecord>> errors = new ArrayList<>();
        DataStream<Document> docs = null;
        for (Map.Entry<InputFormat, List<Path>> e : inputsByFormat(options).entrySet()) {
            SingleOutputStreamOperator<Document> parsed = read(env, e.getKey(), e.getValue(), options);
            errors.add(parsed.getSideOutput(Outputs.ERRORS));
            docs = docs == null ? parsed : docs.union(parsed);
        }

        DataStream<Document> unique;
        if (options.duplicates == EmbedOptions.DuplicatePolicy.KEEP_FIRST) {
            SingleOutputStreamOperator<Document> deduped =
                    docs.keyBy(d -> d.id, Types.STRING)
                            .process(new DeduplicateFunction(options.runtimeMode.equalsIgnoreCase("BATCH")))
                            .name("deduplicate-ids")
                            .uid("deduplicate-ids");
            errors.add(deduped.getSideOutput(Outputs.ERRORS));
            unique = deduped;
        } else {
            unique = docs.rebalance();
        }

        SingleOutputStreamOperator<TokenizedDocument> tokens =
                unique
                        .process(new TokenizeFunction(card, runtime, options.overlong))
                        .name("tokenize")
                        .uid("tokenize");
        errors.add(tokens.getSideOutput(Outputs.ERRORS));

        SingleOutputStreamOperator<InferenceResult> results =
                tokens.transform(
                                "batch-and-infer",
                                TypeInformation.of(InferenceResult.class),
                                new BatchInferenceOperator(model, options.batching(), runId))
                        .uid("batch-and-infer");
        errors.add(results.getSideOutput(Outputs.ERRORS));

        String out = options.output;
        if (options.outputFormats.contains("parquet")) {
            results.sinkTo(
                            FileSink.forBulkFormat(
                                            new Path(out, EMBEDDINGS_DIR), new EmbeddingParquetWriter())
                                    .withBucketAssigner(new BasePathBucketAssigner<>())
                                    .withOutputFileConfig(partNames(runId, ".parquet"))
                                    .build())
                    .name("write-embeddings-parquet")
                    .uid("write-embeddings-parquet");
        }
        if (options.outputFormats.contains("jsonl")) {
            results.sinkTo(jsonl(new Path(out, EMBEDDINGS_DIR), runId))
                    .name("write-embeddings-jsonl")
                    .uid("write-embeddings-jsonl");
        }
        DataStream<BatchMetrics> metrics = results.getSideOutput(Outputs.BATCH_METRICS);
        metrics.sinkTo(jsonl(new Path(out, METRICS_DIR), runId)).name("write-metrics").uid("write-metrics");

        DataStream<ErrorRecord> allErrors = errors.get(0);
        for (DataStream<ErrorRecord> e : errors.subList(1, errors.size())) {
            allErrors = allErrors.union(e);
        }
        allErrors.sinkTo(jsonl(new Path(out, ERRORS_DIR), runId)).name("write-errors").uid("write-errors");
    }

    private static <T> FileSink<T> jsonl(Path dir, String runId) {
        return FileSink.<T>forRowFormat(dir, new JsonLinesEncoder<>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(partNames(runId, ".jsonl"))
                .build();
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
    }

    private static SingleOutputStreamOperator<Document> read(
            StreamExecutionEnvironment env, InputFormat format, List<Path> paths, EmbedOptions o) {
        Path[] array = paths.toArray(new Path[0]);
        String name = "read-" + format.name().toLowerCase(java.util.Locale.ROOT);
        if (format == InputFormat.PARQUET) {
            DataStream<GenericRecord> rows =
                    env.fromSource(
                            FileSource.forRecordStreamFormat(
                                            ParquetInput.format(o.idField, o.textField), array)
                                    .build(),
                            WatermarkStrategy.noWatermarks(),
                            name);
            return rows.process(new ParquetInput.ToDocument(o.idField, o.textField))
                    .name("parse-parquet")
                    .uid("parse-parquet");
        }
        DataStream<RawLine> lines =
                env.fromSource(
                        FileSource.forBulkFileFormat(new LineFormat(o.maxRecordBytes), array).build(),
                        WatermarkStrategy.noWatermarks(),
                        name);
        return lines.process(new RecordParser(format, o.idField, o.textField, o.maxRecordBytes))
                .name("parse-" + format.name().toLowerCase(java.util.Locale.ROOT))
                .uid("parse-" + format.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Groups the inputs by format: --format, else each file's (or directory's files') extension. */
    static Map<InputFormat, List<Path>> inputsByFormat(EmbedOptions o) {
        Map<InputFormat, List<Path>> byFormat = new LinkedHashMap<>();
        for (String input : o.inputs) {
            InputFormat format = o.format != null ? o.format : guess(input);
            byFormat.computeIfAbsent(format, f -> new ArrayList<>()).add(new Path(input));
        }
        if (byFormat.isEmpty()) {
            throw new IllegalArgumentException("No --input given");
        }
        return byFormat;
    }

    private static InputFormat guess(String input) {
        File f = new File(input);
        if (f.isDirectory()) {
            File[] files = f.listFiles(File::isFile);
            if (files == null || files.length == 0) {
                throw new IllegalArgumentException("Input directory " + input + " has no files");
            }
            InputFormat format = InputFormat.fromFileName(files[0].getName());
            for (File file : files) {
                if (!file.getName().startsWith(".") && InputFormat.fromFileName(file.getName()) != format) {
                    throw new IllegalArgumentException(
                            "Input directory " + input + " mixes formats; pass --format");
                }
            }
            return format;
        }
        if (input.contains("://") || f.exists()) {
            return InputFormat.fromFileName(f.getName());
        }
        throw new IllegalArgumentException("Input " + input + " does not exist");
    }
}
