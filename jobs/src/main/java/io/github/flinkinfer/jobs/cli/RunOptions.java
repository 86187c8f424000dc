package io.github.flinkinfer.jobs.cli;

import io.github.flinkinfer.jobs.kafka.KafkaOptions;
import io.github.flinkinfer.jobs.options.CostOptions;
import io.github.flinkinfer.jobs.options.QualityOptions;
import io.github.flinkinfer.jobs.plan.EmbedRun;
import io.github.flinkinfer.jobs.run.FlinkDefaults;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.jobs.spec.Secrets;
import io.github.flinkinfer.jobs.workload.WorkloadDefaults;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.BatchingOptions;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.ledger.ErrorBudget;
import io.github.flinkinfer.operators.models.ModelCards;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * Every option of the embedding job, with its default and help text. Used as a picocli mixin
 * by the commands and parsed by tests and the deployment manifests' check, so the CLI, the docs
 * and the manifests cannot drift apart. {@code --workload} fills what the command line leaves out
 * through picocli's default values ({@link WorkloadDefaults}). The CLI edge only: the run itself
 * reads the immutable {@link RunSpec} that {@link #spec} builds once.
 */
@Command(defaultValueProvider = WorkloadDefaults.class)
public class RunOptions implements RunSpec.Source {
    /**
     * Option names whose values are redacted in the run-info: any dash-separated word of the name
     * is one of these. Whole words, so {@code --max-batch-tokens} (a size) is kept while {@code
     * --auth-token} would not be; {@code --kafka-property} is redacted because client properties
     * carry SASL passwords.
     */
    static final Pattern SECRET = Pattern.compile(
            "(?i)-*(?:.*-)?(password|passwd|secret|secrets|jaas|token|credential|credentials|property|properties)(?:-.*)?");

    @Option(names = {"-i", "--input"}, split = ",",
            description = "Input files or directories (comma-separated or repeated); or read"
                    + " Kafka with --kafka-topic. A directory is read with its subfolders; files and"
                    + " folders whose names start with '_' or '.' are skipped.")
    public List<String> inputs = new ArrayList<>();

    /** Kafka source and sinks (docs/kafka.md). */
    @Mixin public KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--format",
            description = "Input format: ${COMPLETION-CANDIDATES}. Default: from the file extension"
                    + " (.jsonl/.json, .csv, .txt, .parquet).")
    public InputFormat format;

    @Option(names = "--id-field", defaultValue = "id",
            description = "JSON/CSV/Parquet field holding the document id. Default: ${DEFAULT-VALUE}.")
    public String idField;

    @Option(names = "--text-field", defaultValue = "text",
            description = "JSON/CSV/Parquet field holding the text. Default: ${DEFAULT-VALUE}.")
    public String textField;

    @Option(names = {"-o", "--output"}, required = true,
            description = "Output directory on any Flink file system (a path, file://, s3://, hdfs://,"
                    + " gs://, abfs://); gets embeddings/, metrics/, errors/, report-<run-id>.json|html"
                    + " and _SUCCESS-<run-id>.")
    public String output;

    @Option(names = "--output-format", split = ",", defaultValue = "parquet",
            converter = OutputFormat.Converter.class,
            description = "Embedding output formats: parquet, jsonl, opensearch-bulk, pgvector-csv"
                    + " (comma-separated; docs/search-index.md)."
                    + " Default: ${DEFAULT-VALUE}.")
    public List<OutputFormat> outputFormats = new ArrayList<>();

    @Option(names = {"-m", "--model"}, defaultValue = "all-minilm-l6-v2",
            description = "Built-in model (all-minilm-l6-v2, bge-small-en-v1.5, e5-small-v2; add -q"
                    + " for int8; list them with the models command) or path to a model card JSON"
                    + " (docs/model-cards.md). Default: ${DEFAULT-VALUE}.")
    public String model;

    @Option(names = "--input-kind", defaultValue = "PASSAGE",
            description = "What the inputs are, for models trained with input prefixes (e5, bge):"
                    + " ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    public io.github.flinkinfer.runtime.card.InputKind inputKind;

    @Option(names = "--max-length", defaultValue = "0",
            description = "Max tokens per input (0 = the model card's maximum).")
    public int maxLength;

    @Option(names = "--duplicates", defaultValue = "KEEP_FIRST",
            description = "Duplicate ids within a run: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    public DuplicatePolicy duplicates;

    @Option(names = "--overlong", defaultValue = "TRUNCATE",
            description = "Inputs longer than --max-length: ${COMPLETION-CANDIDATES}."
                    + " TRUNCATE flags the output row. Default: ${DEFAULT-VALUE}.")
    public OverlongPolicy overlong;

    @Option(names = "--bucket-edges", split = ",", defaultValue = BatchingOptions.DEFAULT_BUCKET_EDGES,
            description = "Upper token lengths of the length buckets. Default: ${DEFAULT-VALUE}.")
    public int[] bucketEdges;

    @Option(names = "--max-batch-tokens",
            description = "Token budget: max padded tokens (rows x longest row) per batch. Default: "
                    + BatchingOptions.DEFAULT_MAX_BATCH_TOKENS + ", " + BatchingOptions.GPU_MAX_BATCH_TOKENS
                    + " with --device cuda (a GPU call costs about the same whatever its size).")
    public Integer maxBatchTokens;

    @Option(names = "--max-batch-size",
            description = "Max rows per batch. Default: " + BatchingOptions.DEFAULT_MAX_BATCH_SIZE + ", "
                    + BatchingOptions.GPU_MAX_BATCH_SIZE + " with --device cuda.")
    public Integer maxBatchSize;

    @Option(names = "--max-buffered-items", defaultValue = "" + BatchingOptions.DEFAULT_MAX_BUFFERED_ITEMS,
            description = "Max items buffered per subtask before the fullest bucket is flushed."
                    + " Default: ${DEFAULT-VALUE}.")
    public int maxBufferedItems;

    @Option(names = "--lookahead-batches", defaultValue = "" + BatchingOptions.DEFAULT_LOOKAHEAD_BATCHES,
            description = "A bucket is sorted and cut into batches once it holds this many batches'"
                    + " worth of items. Default: ${DEFAULT-VALUE}.")
    public int lookaheadBatches;

    @Option(names = "--max-wait-ms", defaultValue = "0",
            description = "Flush a bucket whose oldest item waited this long (0 = only when full or"
                    + " at end of input; set it for unbounded sources). Default: ${DEFAULT-VALUE}.")
    public long maxWaitMillis;

    @Option(names = {"-p", "--parallelism"}, defaultValue = "0",
            description = "Inference subtasks (0 = number of cores on the embedded cluster, the"
                    + " cluster default otherwise).")
    public int parallelism;

    @Option(names = "--tokenize-parallelism", defaultValue = "0",
            description = "Subtasks that dedupe and tokenize, in their own task beside inference"
                    + " (slot sharing; a rebalance to the inference subtasks), e.g. the cores per"
                    + " GPU TaskManager (0 = chained with inference, at --parallelism; see"
                    + " docs/operations.md, \"Sizing a GPU TaskManager\"). Default: ${DEFAULT-VALUE}.")
    public int tokenizeParallelism;

    @Option(names = "--intra-op-threads", defaultValue = "1",
            description = "ONNX Runtime threads per inference subtask (0 = ORT default)."
                    + " Default: ${DEFAULT-VALUE}.")
    public int intraOpThreads;

    @Option(names = "--optimization-level", defaultValue = "all",
            description = "ONNX Runtime graph optimization: none, basic, extended, all."
                    + " Default: ${DEFAULT-VALUE}.")
    public String optimizationLevel;

    @Option(names = "--overlap", defaultValue = "AUTO",
            description = "Run model calls on their own thread per subtask, overlapped with reading,"
                    + " tokenizing and batching (AUTO = only when the model runs on a GPU; ON, OFF)."
                    + " Default: ${DEFAULT-VALUE}.")
    public io.github.flinkinfer.operators.run.BatchInferenceOperator.Overlap overlap;

    @Option(names = "--ort-config", paramLabel = "KEY=VALUE",
            description = "ONNX Runtime session config entry, repeatable, e.g."
                    + " session.intra_op.allow_spinning=0 (see docs/benchmarks/README.md for the"
                    + " measured effect).")
    public List<String> ortConfig = new java.util.ArrayList<>();

    @Option(names = "--ort-profile", paramLabel = "PREFIX",
            description = "Write ONNX Runtime's per-operator profile (JSON) to files starting with"
                    + " PREFIX, one per session, when the session closes (on each TaskManager).")
    public String ortProfile;

    @Option(names = "--ort-native-dir", paramLabel = "DIR",
            description = "Load ONNX Runtime's native libraries (libonnxruntime.so, libonnxruntime4j_jni.so,"
                    + " the providers) from DIR on this node and on every TaskManager instead of the jar's:"
                    + " e.g. an ONNX Runtime build for CUDA 13 (same version as the jar's Java classes)."
                    + " Set before ORT loads, once per JVM; 'doctor --ort-native-dir DIR' checks it"
                    + " (docs/operations.md).")
    public String ortNativeDir;

    @Option(names = "--device", defaultValue = "${sys:flinkinfer.default-device:-cpu}",
            description = "cpu, cuda, cuda:N or auto (CUDA if available, else CPU). Default:"
                    + " ${DEFAULT-VALUE} (the JVM property flinkinfer.default-device changes it, e.g."
                    + " in env.java.opts of a GPU cluster, or -Dtest.device=auto for the test suite).")
    public String device;

    @Option(names = "--share-session", arity = "0..1", fallbackValue = "true",
            description = "One ONNX Runtime session per TaskManager, model and device, shared by the"
                    + " slots that use it (true|false). Default: true, except on cpu with"
                    + " --intra-op-threads other than 1 (one session per slot there).")
    public Boolean shareSession;

    @Option(names = "--cuda-mem-limit", defaultValue = "0",
            description = "CUDA provider gpu_mem_limit: device memory its arena may hold per"
                    + " session, bytes or with k/m/g (0 = no limit). Default: ${DEFAULT-VALUE}.")
    public String cudaMemLimit;

    @Option(names = "--cuda-arena-extend-strategy",
            description = "CUDA provider arena_extend_strategy: next-power-of-two or"
                    + " same-as-requested. Default: ONNX Runtime's (next-power-of-two).")
    public String cudaArenaExtendStrategy;

    @Option(names = "--cuda-tf32", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
            description = "CUDA provider use_tf32: true runs fp32 MatMul/Conv on TF32 tensor cores"
                    + " (ONNX Runtime's default: faster, a 10-bit mantissa in the products), false keeps"
                    + " strict fp32 (slower, closest to the CPU's outputs)."
                    + " Default: ONNX Runtime's (true).")
    public Boolean cudaTf32;

    @Option(names = "--pool-on-device", arity = "0..1", fallbackValue = "true", paramLabel = "true|false",
            description = "Pool inside the model's graph, so the device returns one vector per input"
                    + " instead of every token's (a GPU then copies about 1/45 of the bytes to the host and"
                    + " the host does not pool). Mean-pooled vectors move by float rounding (the sums' order)."
                    + " Default: on for --device cuda and auto, off for cpu.")
    public Boolean poolOnDevice;

    @Option(names = "--max-record-bytes", defaultValue = "1048576",
            description = "Lines longer than this go to errors (record_too_large) unread."
                    + " Default: ${DEFAULT-VALUE}.")
    public int maxRecordBytes;

    /** Chunking, pooling, index formats and incremental runs (docs/search-index.md). */
    @Mixin public io.github.flinkinfer.jobs.index.IndexOptions index =
            new io.github.flinkinfer.jobs.index.IndexOptions();

    /** Prices for the cost report. */
    @Mixin public CostOptions cost = new CostOptions();

    /** Reference check of a sample of outputs. */
    @Mixin public QualityOptions quality = new QualityOptions();

    /** {@code --push-gateway URL}: the run's numbers pushed when it ends (docs/operations.md). */
    @Mixin public io.github.flinkinfer.jobs.push.PushOptions push = new io.github.flinkinfer.jobs.push.PushOptions();

    /** {@code --workload CARD}: settings from a card's plan, verdicts per clause (docs/workload.md). */
    @Mixin public io.github.flinkinfer.jobs.workload.WorkloadOptions workload =
            new io.github.flinkinfer.jobs.workload.WorkloadOptions();

    @Option(names = "--max-errors", defaultValue = "-1",
            description = "Fail the run when more inputs than this fail (-1 = no cap)."
                    + " Default: ${DEFAULT-VALUE}.")
    public long maxErrors;

    @Option(names = "--max-error-rate", defaultValue = "0.01",
            description = "Fail the run (no _SUCCESS) when the share of failed inputs read exceeds"
                    + " this (0..1, judged after 1000 inputs and at the end; duplicates dropped by"
                    + " --duplicates are not failures; 1.0 = no limit). Default: ${DEFAULT-VALUE}.")
    public double maxErrorRate;

    @Option(names = "--progress-seconds", defaultValue = "5",
            description = "Print a progress line this often during a run (0 = off)."
                    + " Default: ${DEFAULT-VALUE}.")
    public int progressSeconds;

    @Option(names = "--verbose",
            description = "Embedded runs: log our INFO and every library's warnings (Flink, Hadoop,"
                    + " ONNX Runtime) on the console, which otherwise shows progress and summary only.")
    public boolean verbose;

    @Option(names = "--run-id",
            description = "Names output files (part-<run-id>-...). Default: a timestamp.")
    public String runId;

    @Option(names = "--overwrite",
            description = "Remove the files of an earlier run with the same --run-id from --output"
                    + " first (any file system; other runs' files stay). Without it such a run is"
                    + " refused, so outputs never duplicate.")
    public boolean overwrite;

    @Option(names = "--runtime-mode",
            description = "Flink runtime mode: BATCH (bounded inputs) or STREAMING (checkpointed)."
                    + " Default: the cluster's execution.runtime-mode when set, else BATCH.")
    public RuntimeExecutionMode runtimeMode;

    @Option(names = "--checkpoint-interval-ms", defaultValue = "30000",
            description = "Checkpoint interval in STREAMING mode. Default: ${DEFAULT-VALUE}.")
    public long checkpointIntervalMillis;

    @Option(names = "--restart-attempts",
            description = "Fixed-delay restart attempts after a failure. Default: the cluster's"
                    + " restart strategy when it sets one, else fixed-delay with "
                    + FlinkDefaults.RESTART_ATTEMPTS + " attempts.")
    public Integer restartAttempts;

    @Option(names = "-D", paramLabel = "KEY=VALUE",
            description = "A Flink configuration option for this run (repeat), as flink run -D gives"
                    + " one: it wins over $FLINK_CONF_DIR/config.yaml and the job's defaults, and the"
                    + " embedded cluster starts with it; --runtime-mode and --restart-attempts win"
                    + " over it. E.g. -Dinference.input.split-size=64mb,"
                    + " -Dtaskmanager.memory.network.max=1gb (docs/operations.md).")
    public Map<String, String> flinkOptions = new LinkedHashMap<>();

    /** BATCH unless STREAMING was chosen (by option or by the cluster, see FlinkDefaults). */
    public boolean isBatchMode() {
        return runtimeMode != RuntimeExecutionMode.STREAMING;
    }

    public ModelCard modelCard() {
        return ModelCards.resolve(model).forInputs(inputKind);
    }

    public RuntimeOptions runtimeOptions() {
        return new RuntimeOptions(Device.parse(device), intraOpThreads, optimizationLevel, maxLength,
                shareSession, RuntimeOptions.parseBytes(cudaMemLimit), cudaArenaExtendStrategy,
                RuntimeOptions.parseEntries(ortConfig), ortProfile, cudaTf32, ortNativeDir, poolOnDevice);
    }

    public ErrorBudget errorBudget() {
        return new ErrorBudget(maxErrors, maxErrorRate, 1000);
    }

    /**
     * The batching the options give; the token budget and rows per batch not given are the
     * device's defaults ({@link BatchingOptions#GPU_MAX_BATCH_TOKENS} with {@code --device cuda}).
     */
    public BatchingConfig batching() {
        boolean gpu = Device.parse(device).kind() == Device.Kind.CUDA;
        int tokens = maxBatchTokens != null ? maxBatchTokens
                : gpu ? BatchingOptions.GPU_MAX_BATCH_TOKENS : BatchingOptions.DEFAULT_MAX_BATCH_TOKENS;
        int rows = maxBatchSize != null ? maxBatchSize
                : gpu ? BatchingOptions.GPU_MAX_BATCH_SIZE : BatchingOptions.DEFAULT_MAX_BATCH_SIZE;
        return new BatchingConfig(bucketEdges, tokens, rows, maxBufferedItems, lookaheadBatches, maxWaitMillis);
    }

    /**
     * The run these options describe, decided once: validated, the model card resolved, a workload
     * card's contract read, the runtime mode taken from {@code env} when no option sets it, and a
     * run id chosen when none is given. Nothing reads the options after this.
     */
    @Override
    public RunSpec spec(String command, StreamExecutionEnvironment env) throws IOException {
        RuntimeExecutionMode mode = runtimeMode != null ? runtimeMode
                : env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING
                        ? RuntimeExecutionMode.STREAMING : RuntimeExecutionMode.BATCH;
        var contract = workload.contract(command, model, Instant.now());
        validate(mode);
        ModelCard card = modelCard();
        quality.validateFor(card, model);
        RuntimeOptions runtime = runtimeOptions();
        String id = runId != null ? runId
                : LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        KafkaSettings kafkaSettings = kafka.settings();
        return new RunSpec(command, id, model, card, runtime, inputConfig(kafkaSettings),
                outputConfig(id, kafkaSettings),
                inferenceConfig(runtime, mode != RuntimeExecutionMode.STREAMING, kafkaSettings, hybridShuffle(env)),
                errorBudget(),
                new RunSpec.Execution(mode, parallelism, tokenizeParallelism, checkpointIntervalMillis,
                        progressSeconds, overwrite),
                new RunSpec.QualityVerdict(quality.floor, quality.meanFloor, quality.referenceFor(model)),
                contract, workload.failOnMissedContract, push.pushGateway, settings(), changedDefaults());
    }

    /** The inference subtasks (the option, else {@code env}'s parallelism) or the tokenize ones, the wider. */
    @Override
    public int slots(StreamExecutionEnvironment env) {
        return Math.max(parallelism > 0 ? parallelism : env.getParallelism(), tokenizeParallelism);
    }

    /**
     * What {@code embed args} would run with, decided as {@code embed} decides it and never
     * submitted: {@code plan}'s cluster sizing builds the job graph from it.
     */
    public static EmbedRun.Decided embed(String... args) throws IOException {
        RunOptions o = new RunOptions();
        new CommandLine(o).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        StreamExecutionEnvironment env = o.environment();
        return new EmbedRun.Decided(env, o.spec("embed", env));
    }

    /** The run's execution environment with our Flink defaults ({@link FlinkDefaults#environment}). */
    public StreamExecutionEnvironment environment() {
        return FlinkDefaults.environment(runtimeMode, restartAttempts, flinkOptions);
    }

    /**
     * Every option of the command with its value, secret-looking ones redacted; the token budget
     * and rows per batch as the device resolves them where not given ({@link #batching}).
     */
    public Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (OptionSpec opt : new CommandLine(this).getCommandSpec().options()) {
            String name = opt.longestName();
            Object value = opt.getValue();
            if (value instanceof int[] a) {
                value = java.util.Arrays.toString(a);
            } else if (value instanceof Map<?, ?> m) {
                value = Secrets.redact(m); // -D: an S3 secret key, a SASL config
            }
            settings.put(name, SECRET.matcher(name).matches() && value != null ? "<redacted>" : value);
        }
        BatchingConfig batching = batching(); // the device's defaults where none was given
        settings.put("--max-batch-tokens", batching.maxBatchTokens());
        settings.put("--max-batch-size", batching.maxBatchSize());
        return settings;
    }

    /**
     * The default of every option whose value differs from it: what the report shows first (the
     * rest is one click away). Defaults are what the CLI gives with only {@code --output}.
     */
    public Map<String, Object> changedDefaults() {
        RunOptions plain = new RunOptions();
        new CommandLine(plain).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--output", "");
        Map<String, Object> defaults = plain.settings();
        Map<String, Object> changed = new LinkedHashMap<>();
        settings().forEach((name, value) -> {
            Object d = defaults.get(name);
            if (!Objects.equals(String.valueOf(value), String.valueOf(d))) {
                changed.put(name, "".equals(d) ? null : d);
            }
        });
        return changed;
    }

    /** Checks option combinations early, before any Flink work starts. */
    public void validate() {
        validate(runtimeMode);
    }

    private void validate(RuntimeExecutionMode mode) {
        ModelCard card = modelCard();
        batching().validateFor(runtimeOptions().effectiveMaxLength(card));
        index.validate(runtimeOptions().effectiveMaxLength(card));
        if (index.incremental() && !duplicates.keepsFirst()) {
            throw new IllegalArgumentException("--previous-output needs --duplicates KEEP_FIRST (or KEEP_FIRST_BEFORE_INFERENCE)");
        }
        if (mode == RuntimeExecutionMode.AUTOMATIC) {
            throw new IllegalArgumentException("--runtime-mode must be BATCH or STREAMING");
        }
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("--max-record-bytes must be > 0");
        }
        if (tokenizeParallelism < 0) {
            throw new IllegalArgumentException("--tokenize-parallelism must be >= 0 (0 = chained with inference)");
        }
        if (inputs.isEmpty() == !kafka.settings().readsKafka()) {
            throw new IllegalArgumentException("give either --input or --kafka-topic/--kafka-topic-pattern");
        }
        kafka.validate(mode == RuntimeExecutionMode.STREAMING, checkpointIntervalMillis);
    }

    /** What the sources need (FileInputs, KafkaInputs). */
    public io.github.flinkinfer.jobs.spec.InputConfig inputConfig() {
        return inputConfig(kafka.settings());
    }

    private io.github.flinkinfer.jobs.spec.InputConfig inputConfig(KafkaSettings kafkaSettings) {
        return new io.github.flinkinfer.jobs.spec.InputConfig(
                inputs, format, idField, textField, maxRecordBytes, kafkaSettings);
    }

    /** What the sinks of run {@code runId} need (FileOutputs, IndexOutputs, KafkaOutputs, the task's writers). */
    public io.github.flinkinfer.jobs.spec.OutputConfig outputConfig(String runId) {
        return outputConfig(runId, kafka.settings());
    }

    private io.github.flinkinfer.jobs.spec.OutputConfig outputConfig(String runId, KafkaSettings kafkaSettings) {
        return new io.github.flinkinfer.jobs.spec.OutputConfig(
                output, runId, outputFormats, index.indexName, index.vectorField, kafkaSettings);
    }

    /**
     * What the shared middle of the dataflow needs (InferencePipeline#infer); {@code runtime} is
     * the run's model runtime settings, which the quality gate's reference model runs with.
     */
    public InferenceConfig inferenceConfig(RuntimeOptions runtime) {
        return inferenceConfig(runtime, isBatchMode(), kafka.settings(), false);
    }

    /**
     * Whether {@code env} shuffles BATCH exchanges the hybrid way ({@code execution.batch-shuffle-mode:
     * ALL_EXCHANGES_HYBRID_*}): there the keep-first after inference's result filter, which reads
     * its positions input before its results input, never left INITIALIZING (Flink 2.3), so such
     * a run keeps the dedupe before tokenization (docs/errors.md).
     */
    private static boolean hybridShuffle(StreamExecutionEnvironment env) {
        var shuffle = env.getConfiguration().get(ExecutionOptions.BATCH_SHUFFLE_MODE);
        return shuffle == org.apache.flink.api.common.BatchShuffleMode.ALL_EXCHANGES_HYBRID_FULL
                || shuffle == org.apache.flink.api.common.BatchShuffleMode.ALL_EXCHANGES_HYBRID_SELECTIVE;
    }

    private InferenceConfig inferenceConfig(RuntimeOptions runtime, boolean batchMode, KafkaSettings kafkaSettings,
            boolean hybridShuffle) {
        return new InferenceConfig(duplicates, batchMode, batchMode && !kafkaSettings.writesKafka() && !hybridShuffle,
                overlong, index.chunking(),
                index.previousOutput, index.previousRunId, batching(), cost.model(intraOpThreads),
                quality.gate(runtime, model), overlap, tokenizeParallelism);
    }
}
