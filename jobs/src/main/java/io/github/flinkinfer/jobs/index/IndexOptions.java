package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.operators.chunk.Chunking;
import picocli.CommandLine.Option;

/** Options for search-index outputs: chunking, pooling, index formats, incremental runs. */
public class IndexOptions {
    /** Output formats beside parquet and jsonl. */

    @Option(names = "--chunk-size", defaultValue = "0",
            description = "Split documents into windows of this many tokens (special tokens not"
                    + " counted); outputs get ids <doc-id>#<chunk> and token offsets. 0 = off (one row"
                    + " per document, --overlong applies). Default: ${DEFAULT-VALUE}.")
    public int chunkSize;

    @Option(names = "--chunk-overlap", defaultValue = "0",
            description = "Tokens shared by consecutive windows (< --chunk-size). Default: ${DEFAULT-VALUE}.")
    public int chunkOverlap;

    @Option(names = "--doc-pooling", defaultValue = "NONE",
            description = "With --chunk-size, also write one row per document: ${COMPLETION-CANDIDATES}"
                    + " (MEAN = mean of its chunk embeddings, re-normalized). Default: ${DEFAULT-VALUE}.")
    public Chunking.Pooling docPooling;

    @Option(names = "--index-name", defaultValue = "embeddings",
            description = "Index named in opensearch-bulk action lines. Default: ${DEFAULT-VALUE}.")
    public String indexName;

    @Option(names = "--vector-field", defaultValue = "embedding",
            description = "Name of the vector field in opensearch-bulk documents. Default: ${DEFAULT-VALUE}.")
    public String vectorField;

    @Option(names = "--previous-output",
            description = "Output directory of an earlier run to reuse: documents whose text sha256,"
                    + " model version and settings are unchanged are not inferred; their rows are"
                    + " carried into this run's output.")
    public String previousOutput;

    @Option(names = "--previous-run-id",
            description = "Run in --previous-output to reuse. Default: the newest run with a"
                    + " _SUCCESS-<run-id> marker (local directories).")
    public String previousRunId;

    public Chunking chunking() {
        return new Chunking(chunkSize, chunkOverlap, docPooling);
    }

    public boolean incremental() {
        return previousOutput != null;
    }

    /** Checks these options against the model's max length. */
    public void validate(int maxLength) {
        chunking().validateFor(maxLength, 2);
        if (indexName.isBlank() || !indexName.equals(indexName.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("--index-name must be a non-empty lowercase name");
        }
    }
}
