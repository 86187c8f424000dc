package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.EmbedOptions;
import io.github.flinkinfer.operators.BatchMetrics;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.InferenceResult;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Writes a run's outputs with {@link FileSink} (exactly-once: files are committed at the end of a
 * BATCH job or on checkpoints in STREAMING mode; in-progress files are hidden):
 * {@code embeddings/} (Parquet and/or JSONL), {@code metrics/} and {@code errors/} (JSONL), all
 * named {@code part-<run-id>-...}.
 */
public final class FileOutputs {
    public static final String EMBEDDINGS_DIR = "embeddings";
    public static final String METRICS_DIR = "metrics";
    public static final String ERRORS_DIR = "errors";

    private FileOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, EmbedOptions o, String runId) {
        if (o.outputFormats.contains("parquet")) {
            results.sinkTo(
                            FileSink.forBulkFormat(
                                            new Path(o.output, EMBEDDINGS_DIR), new EmbeddingParquetWriter())
                                    .withBucketAssigner(new BasePathBucketAssigner<>())
                                    .withOutputFileConfig(partNames(runId, ".parquet"))
                                    .build())
                    .name("write-embeddings-parquet")
                    .uid("write-embeddings-parquet");
        }
        if (o.outputFormats.contains("jsonl")) {
            results.sinkTo(jsonl(new Path(o.output, EMBEDDINGS_DIR), runId))
                    .name("write-embeddings-jsonl")
                    .uid("write-embeddings-jsonl");
        }
        io.github.flinkinfer.jobs.index.IndexOutputs.writeResults(results, o, runId);
    }

    public static void writeMetrics(DataStream<BatchMetrics> metrics, EmbedOptions o, String runId) {
        metrics.sinkTo(jsonl(new Path(o.output, METRICS_DIR), runId)).name("write-metrics").uid("write-metrics");
    }

    public static void writeErrors(DataStream<ErrorRecord> errors, EmbedOptions o, String runId) {
        errors.sinkTo(jsonl(new Path(o.output, ERRORS_DIR), runId)).name("write-errors").uid("write-errors");
    }

    public static <T> FileSink<T> jsonl(Path dir, String runId) {
        return FileSink.<T>forRowFormat(dir, new JsonLinesEncoder<>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(partNames(runId, ".jsonl"))
                .build();
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
    }
}
