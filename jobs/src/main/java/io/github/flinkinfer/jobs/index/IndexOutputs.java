package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.jobs.EmbedOptions;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.SkippedDocument;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Sinks for index formats, beside {@link FileOutputs}' Parquet and JSONL: {@code
 * embeddings/part-<run-id>-*.bulk.ndjson} (opensearch-bulk), {@code
 * embeddings/part-<run-id>-*.csv} (pgvector-csv), and {@code skipped/} (one JSONL row per
 * document an incremental run carried over instead of inferring).
 */
public final class IndexOutputs {
    public static final String SKIPPED_DIR = "skipped";

    private IndexOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, EmbedOptions o, String runId) {
        Path dir = new Path(o.output, FileOutputs.EMBEDDINGS_DIR);
        if (o.outputFormats.contains(IndexOptions.OPENSEARCH_BULK)) {
            results.sinkTo(FileSink.forRowFormat(dir,
                                    new OpenSearchBulkEncoder(o.index.indexName, o.index.vectorField))
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .withOutputFileConfig(partNames(runId, ".bulk.ndjson"))
                            .build())
                    .name("write-embeddings-opensearch-bulk")
                    .uid("write-embeddings-opensearch-bulk");
        }
        if (o.outputFormats.contains(IndexOptions.PGVECTOR_CSV)) {
            results.sinkTo(FileSink.forBulkFormat(dir, new PgvectorCsvWriter())
                            .withBucketAssigner(new BasePathBucketAssigner<>())
                            .withOutputFileConfig(partNames(runId, ".csv"))
                            .build())
                    .name("write-embeddings-pgvector-csv")
                    .uid("write-embeddings-pgvector-csv");
        }
    }

    public static void writeSkipped(DataStream<SkippedDocument> skipped, EmbedOptions o, String runId) {
        skipped.sinkTo(FileOutputs.jsonl(new Path(o.output, SKIPPED_DIR), runId))
                .name("write-skipped")
                .uid("write-skipped");
    }

    private static OutputFileConfig partNames(String runId, String suffix) {
        return OutputFileConfig.builder().withPartPrefix("part-" + runId).withPartSuffix(suffix).build();
    }
}
