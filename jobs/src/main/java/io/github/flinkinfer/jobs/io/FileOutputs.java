package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.EmbedOptions;
import io.github.flinkinfer.operators.BatchMetrics;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.InferenceResult;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Writes a run's outputs with {@link FileSink} (exactly-once: files are committed at the end of a
 * BATCH job or on checkpoints in STREAMING mode; in-progress files are hidden):
 * {@code embeddings/} (Parquet and/or JSONL), {@code metrics/} and {@code errors/} (JSONL), all
 * named {@code part-<run-id>-...}. {@link #write} is the one way every task and index format
 * adds a part-file output.
 */
public final class FileOutputs {
    public static final String EMBEDDINGS_DIR = "embeddings";
    public static final String METRICS_DIR = "metrics";
    public static final String ERRORS_DIR = "errors";

    private FileOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, EmbedOptions o, String runId) {
        if (o.outputFormats.contains("parquet")) {
            write(results, o, runId, EMBEDDINGS_DIR, ".parquet", new EmbeddingParquetWriter(), "parquet");
        }
        if (o.outputFormats.contains("jsonl")) {
            write(results, o, runId, EMBEDDINGS_DIR, ".jsonl", new JsonLinesEncoder<>(), "jsonl");
        }
        io.github.flinkinfer.jobs.index.IndexOutputs.writeResults(results, o, runId);
    }

    public static void writeMetrics(DataStream<BatchMetrics> metrics, EmbedOptions o, String runId) {
        write(metrics, o, runId, METRICS_DIR, ".jsonl", new JsonLinesEncoder<>(), null);
    }

    public static void writeErrors(DataStream<ErrorRecord> errors, EmbedOptions o, String runId) {
        write(errors, o, runId, ERRORS_DIR, ".jsonl", new JsonLinesEncoder<>(), null);
    }

    /**
     * Adds a row-format part-file output {@code <output>/<dir>/part-<run-id>-*<suffix>}, named
     * {@code write-<dir>[-<format>]} (also its uid).
     */
    public static <T> void write(DataStream<T> rows, EmbedOptions o, String runId, String dir,
            String suffix, Encoder<T> encoder, String format) {
        String name = sinkName(dir, format);
        rows.sinkTo(FileSink.forRowFormat(new Path(o.output, dir), encoder)
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withOutputFileConfig(partNames(runId, suffix))
                        .build())
                .name(name)
                .uid(name);
    }

    /** Same, for a bulk format (Parquet, CSV with a header): one file per checkpoint or end. */
    public static <T> void write(DataStream<T> rows, EmbedOptions o, String runId, String dir,
            String suffix, BulkWriter.Factory<T> writer, String format) {
        String name = sinkName(dir, format);
        rows.sinkTo(FileSink.forBulkFormat(new Path(o.output, dir), writer)
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withOutputFileConfig(partNames(runId, suffix))
                        .build())
                .name(name)
                .uid(name);
    }

    private static String sinkName(String dir, String format) {
        return "write-" + dir + (format == null ? "" : "-" + format);
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
    }
}
