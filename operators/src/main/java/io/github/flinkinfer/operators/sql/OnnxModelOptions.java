package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.batch.BatchingOptions;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** {@code CREATE MODEL ... WITH (...)} options of the {@code onnx} provider; they mirror {@code embed}'s flags. */
public final class OnnxModelOptions {
    private OnnxModelOptions() {}

    public static final ConfigOption<String> MODEL =
            ConfigOptions.key("model").stringType().defaultValue("all-minilm-l6-v2")
                    .withDescription("Built-in model name (all-minilm-l6-v2, bge-small-en-v1.5,"
                            + " e5-small-v2, each with an int8 -q variant) or the path of a model card"
                            + " JSON file.");

    public static final ConfigOption<io.github.flinkinfer.runtime.card.InputKind> INPUT_KIND =
            ConfigOptions.key("input-kind").enumType(io.github.flinkinfer.runtime.card.InputKind.class)
                    .defaultValue(io.github.flinkinfer.runtime.card.InputKind.PASSAGE)
                    .withDescription("PASSAGE or QUERY: picks the card's input prefix (e5, bge).");

    public static final ConfigOption<String> DEVICE =
            ConfigOptions.key("device").stringType().defaultValue("cpu")
                    .withDescription("cpu, cuda, cuda:N or auto (CUDA if available, else CPU).");

    public static final ConfigOption<Integer> MAX_LENGTH =
            ConfigOptions.key("max-length").intType().defaultValue(0)
                    .withDescription("Max tokens per input (0 = the model card's maximum).");

    public static final ConfigOption<OverlongPolicy> OVERLONG =
            ConfigOptions.key("overlong").enumType(OverlongPolicy.class)
                    .defaultValue(OverlongPolicy.TRUNCATE)
                    .withDescription("Inputs longer than max-length: TRUNCATE or REJECT (error row).");

    public static final ConfigOption<String> BUCKET_EDGES = BatchingOptions.BUCKET_EDGES;

    public static final ConfigOption<Integer> MAX_BATCH_TOKENS = BatchingOptions.MAX_BATCH_TOKENS;

    public static final ConfigOption<Integer> MAX_BATCH_SIZE = BatchingOptions.MAX_BATCH_SIZE;

    public static final ConfigOption<Integer> LOOKAHEAD_BATCHES = BatchingOptions.LOOKAHEAD_BATCHES;

    public static final ConfigOption<Duration> MAX_WAIT =
            ConfigOptions.key("max-wait").durationType().defaultValue(Duration.ofMillis(100))
                    .withDescription("Longest a row waits in the batcher before its bucket is run."
                            + " Async lookups have no end-of-input signal, so this also bounds the"
                            + " tail of a bounded input.");

    public static final ConfigOption<Integer> INTRA_OP_THREADS =
            ConfigOptions.key("intra-op-threads").intType().defaultValue(1)
                    .withDescription("ONNX Runtime threads per inference subtask (0 = ORT default).");

    public static final ConfigOption<String> OPTIMIZATION_LEVEL =
            ConfigOptions.key("optimization-level").stringType().defaultValue("all")
                    .withDescription("ONNX Runtime graph optimization: none, basic, extended, all.");

    public static final ConfigOption<String> LABELS =
            ConfigOptions.key("labels").stringType().noDefaultValue()
                    .withDescription("Classification models: renames the card's labels (same"
                            + " count and order), comma-separated.");

    /**
     * The planner's bound on rows in flight per ML_PREDICT subtask (the async operator's
     * capacity). Flink's default of 10 would cap every batch at 10 rows; the {@code sql} command
     * raises it. Overridable per query with {@code MAP['max-concurrent-operations', '...']}.
     */
    public static final ConfigOption<Integer> ASYNC_CAPACITY =
            ConfigOptions.key("table.exec.async-ml-predict.max-concurrent-operations")
                    .intType().defaultValue(10)
                    .withDescription("Flink's async ML_PREDICT capacity (rows in flight per subtask).");

    /** The ML_PREDICT runtime-config key for the same bound. */
    public static final ConfigOption<Integer> QUERY_CAPACITY =
            ConfigOptions.key("max-concurrent-operations").intType().noDefaultValue();
}
