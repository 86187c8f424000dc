package io.github.flinkinfer.operators.batch;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The batching options and their defaults, in one place: the job's flags ({@code --max-batch-tokens}
 * …), the SQL model options ({@code 'max-batch-tokens'} …) and {@link BatchingConfig#defaults()}
 * all take them from here. The constants exist because annotation defaults must be constants.
 */
public final class BatchingOptions {
    public static final String DEFAULT_BUCKET_EDGES = "16,32,64,128,256,512";
    /** Measured on 2 cores (docs/benchmarks): larger budgets gave no more throughput. */
    public static final int DEFAULT_MAX_BATCH_TOKENS = 2048;
    public static final int DEFAULT_MAX_BATCH_SIZE = 256;
    /**
     * The defaults with {@code --device cuda}: a GPU call costs about 2 ms whatever its size, so
     * at 2,048 tokens the launches bound an H200 at about 13k items/s with MiniLM-L6 in fp16, and
     * 32,768 tokens of up to 512 rows reach about 103k (docs/operations.md, "Sizing a GPU TaskManager").
     */
    public static final int GPU_MAX_BATCH_TOKENS = 32_768;
    public static final int GPU_MAX_BATCH_SIZE = 512;
    public static final int DEFAULT_MAX_BUFFERED_ITEMS = 4096;
    public static final int DEFAULT_LOOKAHEAD_BATCHES = 4;

    public static final ConfigOption<String> BUCKET_EDGES =
            ConfigOptions.key("bucket-edges").stringType().defaultValue(DEFAULT_BUCKET_EDGES)
                    .withDescription("Upper token lengths of the length buckets, comma-separated.");

    public static final ConfigOption<Integer> MAX_BATCH_TOKENS =
            ConfigOptions.key("max-batch-tokens").intType().defaultValue(DEFAULT_MAX_BATCH_TOKENS)
                    .withDescription("Token budget: max padded tokens (rows x longest row) per batch.");

    public static final ConfigOption<Integer> MAX_BATCH_SIZE =
            ConfigOptions.key("max-batch-size").intType().defaultValue(DEFAULT_MAX_BATCH_SIZE)
                    .withDescription("Max rows per batch.");

    public static final ConfigOption<Integer> MAX_BUFFERED_ITEMS =
            ConfigOptions.key("max-buffered-items").intType().defaultValue(DEFAULT_MAX_BUFFERED_ITEMS)
                    .withDescription("Max items buffered per subtask before the fullest bucket is flushed.");

    public static final ConfigOption<Integer> LOOKAHEAD_BATCHES =
            ConfigOptions.key("lookahead-batches").intType().defaultValue(DEFAULT_LOOKAHEAD_BATCHES)
                    .withDescription("A bucket is sorted and cut once it holds this many batches' worth.");

    private BatchingOptions() {}

    /** Parses comma-separated bucket edges. */
    public static int[] edges(String commaSeparated) {
        try {
            return java.util.Arrays.stream(commaSeparated.split(",")).map(String::trim)
                    .mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bucket-edges must be integers: " + commaSeparated);
        }
    }
}
