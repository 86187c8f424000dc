package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.incremental.SkippedDocument;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Sinks for index formats, beside {@link FileOutputs}' Parquet and JSONL: {@code
 * embeddings/part-<run-id>-*.bulk.ndjson} (opensearch-bulk), {@code
 * embeddings/part-<run-id>-*.csv} (pgvector-csv), and {@code skipped/} (one JSONL row per
 * document an incremental run carried over instead of inferring).
 */
public final class IndexOutputs {
    public static final String SKIPPED_DIR = "skipped";

    private IndexOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, OutputConfig out) {
        if (out.formats().contains(OutputFormat.OPENSEARCH_BULK)) {
            FileOutputs.write(results, out, FileOutputs.EMBEDDINGS_DIR, OutputFormat.OPENSEARCH_BULK,
                    new OpenSearchBulkEncoder(out.indexName(), out.vectorField()));
        }
        if (out.formats().contains(OutputFormat.PGVECTOR_CSV)) {
            FileOutputs.write(results, out, FileOutputs.EMBEDDINGS_DIR, OutputFormat.PGVECTOR_CSV,
                    new PgvectorCsvWriter());
        }
    }

    public static void writeSkipped(DataStream<SkippedDocument> skipped, OutputConfig out) {
        FileOutputs.writeRecords(skipped, out, SKIPPED_DIR);
    }
}
