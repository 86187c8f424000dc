package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.operators.Exchanges;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.runtime.partitioner.GlobalPartitioner;

/**
 * Writes a run's outputs with {@link FileSink} (exactly-once: files are committed at the end of a
 * BATCH job or on checkpoints in STREAMING mode; in-progress files are hidden; each committer
 * subtask leaves a receipt when it is done, {@link CommitReceipts}):
 * {@code embeddings/} (Parquet and/or JSONL), {@code metrics/} and {@code errors/} (JSONL), all
 * named {@code part-<run-id>-...}; the index formats are {@code IndexOutputs}', which uses this. {@link #write} is the one way every task and index format
 * adds a part-file output.
 *
 * <pre>{@code
 * FileOutputs.writeResults(results, options.outputConfig(runId));
 * }</pre>
 */
public final class FileOutputs {
    public static final String EMBEDDINGS_DIR = "embeddings";
    public static final String METRICS_DIR = "metrics";
    public static final String ERRORS_DIR = "errors";

    private FileOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, OutputConfig out) {
        if (out.formats().contains(OutputFormat.PARQUET)) {
            write(results, out, EMBEDDINGS_DIR, OutputFormat.PARQUET, new EmbeddingParquetWriter());
        }
        if (out.formats().contains(OutputFormat.JSONL)) {
            write(results, out, EMBEDDINGS_DIR, OutputFormat.JSONL, new JsonLinesEncoder<>());
        }
    }

    /**
     * The batch rows: with {@code oneWriter} (STREAMING, or BATCH where the job may pipeline) one
     * writer subtask reads them as the batches end, over a pipelined exchange, and leaves one file
     * per run (a row per batch is little for one subtask: about 2,000 a second at 140k items/s);
     * otherwise a writer on every inference subtask, as for the results (a blocking exchange to
     * one writer would write them all after the last batch).
     */
    public static void writeMetrics(DataStream<BatchMetrics> metrics, OutputConfig out, boolean oneWriter) {
        if (oneWriter) {
            writeRecords(Exchanges.pipelined(metrics, new GlobalPartitioner<>()), out, METRICS_DIR).setParallelism(1);
        } else {
            writeRecords(metrics, out, METRICS_DIR);
        }
    }

    public static void writeErrors(DataStream<ErrorRecord> errors, OutputConfig out) {
        writeRecords(errors, out, ERRORS_DIR);
    }

    /** A run's own records (metrics, errors, skipped) as JSONL in {@code dir}, sink {@code write-<dir>}. */
    public static <T> DataStreamSink<T> writeRecords(DataStream<T> records, OutputConfig out, String dir) {
        Path path = new Path(out.directory(), dir);
        return sink(records, path, FileSink.forRowFormat(path, new JsonLinesEncoder<T>()), out.runId(), ".jsonl",
                "write-" + dir);
    }

    /**
     * Adds a result output in a row format: {@code <output>/<dir>/part-<run-id>-*<suffix>}, sink
     * {@code write-<dir>-<format>} (also its uid).
     */
    public static <T> void write(DataStream<T> rows, OutputConfig out, String dir, OutputFormat format,
            Encoder<T> encoder) {
        Path path = new Path(out.directory(), dir);
        sink(rows, path, FileSink.forRowFormat(path, encoder), out.runId(), format.suffix(),
                "write-" + dir + "-" + format.id());
    }

    /** Same, for a bulk format (Parquet, CSV with a header): one file per checkpoint or end. */
    public static <T> void write(DataStream<T> rows, OutputConfig out, String dir, OutputFormat format,
            BulkWriter.Factory<T> writer) {
        Path path = new Path(out.directory(), dir);
        sink(rows, path, FileSink.forBulkFormat(path, writer), out.runId(), format.suffix(),
                "write-" + dir + "-" + format.id());
    }

    private static <T> DataStreamSink<T> sink(DataStream<T> rows, Path dir, FileSink.DefaultRowFormatBuilder<T> builder,
            String runId, String suffix, String name) {
        return sink(rows, dir, builder.withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(partNames(runId, suffix)).build(), runId, suffix, name);
    }

    private static <T> void sink(DataStream<T> rows, Path dir, FileSink.DefaultBulkFormatBuilder<T> builder,
            String runId, String suffix, String name) {
        sink(rows, dir, builder.withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(partNames(runId, suffix)).build(), runId, suffix, name);
    }

    /**
     * The one sink chain of every file output: the FileSink, with its commit receipts, on the
     * subtasks of the stage that makes the rows (chained to it).
     */
    private static <T> DataStreamSink<T> sink(DataStream<T> rows, Path dir, FileSink<T> files, String runId,
            String suffix, String name) {
        DataStreamSink<T> sink = rows.sinkTo(CommitReceipts.around(files, dir, runId, suffix, name))
                .name(name).uid(name);
        SameParallelism.as(sink.getTransformation(), rows);
        return sink;
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
    }
}
