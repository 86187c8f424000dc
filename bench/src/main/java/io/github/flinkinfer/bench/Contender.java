package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import io.github.flinkinfer.bench.BenchCorpus.Doc;
import io.github.flinkinfer.bench.device.SimulatedDeviceFactory;
import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.sql.SqlEmbedding;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.BatchMetricsReader;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.operators.sql.PredictRecorder;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;

/**
 * Runs one contender once, in this JVM, and prints {@code RESULT <json>}. Every contender gets
 * the same documents, model file, max length and thread budget; the timer starts after model
 * load and a warm-up pass and stops after the last output.
 */
public final class Contender {
    private static final int WARMUP_DOCS = 32;

    final List<Doc> docs;
    final int maxLength;
    final int threads;
    final int maxBatchTokens;
    final Path tmp;
    final Variant variant;
    /** Where ONNX Runtime writes its profile ({@code profile=1}), else null. */
    final String profilePrefix;

    Contender(List<Doc> docs, int maxLength, int threads, int maxBatchTokens, Path tmp) {
        this(docs, maxLength, threads, maxBatchTokens, tmp, Variant.parse("default"));
    }

    Contender(List<Doc> docs, int maxLength, int threads, int maxBatchTokens, Path tmp, Variant variant) {
        this.docs = docs;
        this.maxLength = maxLength;
        this.threads = threads;
        this.maxBatchTokens = variant.budget(maxBatchTokens);
        this.tmp = tmp;
        this.variant = variant;
        this.profilePrefix = variant.flag("profile")
                ? tmp.resolve("ort-profile-" + ProcessHandle.current().pid()).toString() : null;
    }

    /** args: name corpus docs maxLength threads maxBatchTokens tmpDir */
    public static void main(String[] args) throws Exception {
        Variant variant = Variant.parse(args[0]);
        String name = variant.base();
        List<Doc> docs = BenchCorpus.load(Path.of(args[1]), Integer.parseInt(args[2]));
        Contender c = new Contender(docs, Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                Integer.parseInt(args[5]), Path.of(args[6]), variant);
        Stats s = switch (name) {
            case "arrival-batch32" -> c.fixedBatches(32, "all-minilm-l6-v2");
            case "batch1" -> c.fixedBatches(1, "all-minilm-l6-v2");
            case "langchain4j" -> c.langchain4j();
            case "bare-1x2" -> c.bareLoop("all-minilm-l6-v2");
            case "bare-2x1" -> c.bareParallel();
            case "flink" -> c.flink("all-minilm-l6-v2");
            case "host-ceiling" -> c.flink(HostCeiling.FIXTURE_CARD);
            case "sim-device" -> c.flink(HostCeiling.FIXTURE_CARD);
            case "tokenize-only" -> HostCeiling.tokenizeOnly(c);
            case "write-only" -> HostCeiling.writeOnly(c);
            case "flink-int8" -> c.flink("all-minilm-l6-v2-q");
            case "sql" -> c.sql("all-minilm-l6-v2");
            case "int8-bare-1x2" -> c.int8();
            default -> throw new IllegalArgumentException("unknown contender " + name);
        };
        if (c.profilePrefix != null) { // sessions are closed by now, so ORT has written its files
            s.extra.putAll(Profiles.ortOperators(Profiles.ortFiles(c.profilePrefix)));
        }
        s.extra.put("maxBatchTokens", c.maxBatchTokens);
        // The max length the contender really ran at; ratios only compare equal ones.
        s.extra.putIfAbsent("maxLength", c.options(1).effectiveMaxLength(ModelCard.builtIn("all-minilm-l6-v2")));
        s.extra.putIfAbsent("cores", Runtime.getRuntime().availableProcessors());
        System.out.println("RESULT " + new ObjectMapper().writeValueAsString(s.toMap(args[0])));
        System.exit(0);
    }

    /** Where our contenders run: {@code -Dbench.device} from {@code Bench --device} (cpu by default). */
    static final String DEVICE = System.getProperty("bench.device", "cpu");

    RuntimeOptions options(int intraThreads) {
        return new RuntimeOptions(io.github.flinkinfer.runtime.Device.parse(DEVICE), intraThreads,
                variant.optimizationLevel(), maxLength, null, 0, null,
                new java.util.TreeMap<>(variant.sessionConfig()), profilePrefix);
    }

    /** (1) and (2): arrival order, fixed batch size, padded to the batch maximum. */
    Stats fixedBatches(int size, String model) {
        ModelCard card = ModelCard.builtIn(model);
        Flops flops = new Flops(card.shape);
        try (TextTokenizer tok = TextTokenizer.load(card, options(threads));
                OnnxModel m = OnnxModel.load(card, options(threads))) {
            run(docs.subList(0, WARMUP_DOCS), size, tok, m, flops, new Stats());
            Stats s = new Stats();
            long t0 = s.start();
            run(docs, size, tok, m, flops, s);
            s.stop(t0);
            return s;
        }
    }

    private static void run(List<Doc> docs, int size, TextTokenizer tok, OnnxModel m, Flops flops, Stats s) {
        for (int i = 0; i < docs.size(); i += size) {
            long b0 = System.nanoTime();
            List<int[]> batch = new ArrayList<>();
            for (Doc d : docs.subList(i, Math.min(docs.size(), i + size))) {
                batch.add(tok.encode(d.text()).ids());
            }
            m.infer(batch);
            record(s, batch, flops, (System.nanoTime() - b0) / 1e6);
        }
    }

    private static void record(Stats s, List<int[]> batch, Flops flops, double millis) {
        int padded = 0;
        long real = 0;
        double useful = 0;
        for (int[] ids : batch) {
            padded = Math.max(padded, ids.length);
            real += ids.length;
            useful += flops.sequence(ids.length);
        }
        s.batch(batch.size(), real, padded, useful, flops.batch(batch.size(), padded), millis);
    }

    /** (3): langchain4j's in-process model, same ONNX file, its own tokenizer and batching. */
    Stats langchain4j() {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        Flops flops = new Flops(card.shape);
        AllMiniLmL6V2EmbeddingModel model = new AllMiniLmL6V2EmbeddingModel();
        model.embedAll(docs.subList(0, WARMUP_DOCS).stream().map(d -> TextSegment.from(d.text())).toList());
        List<TextSegment> segments = docs.stream().map(d -> TextSegment.from(d.text())).toList();
        Stats s = new Stats();
        long t0 = s.start();
        model.embedAll(segments);
        s.stop(t0);
        // What it really ran (it runs items one by one, at its own max length, not --max-length).
        ReferenceWork work = ReferenceWork.ofTokenizer("all-minilm-l6-v2-tokenizer.json");
        try (TextTokenizer tok = TextTokenizer.load(card, options(1).withMaxSequenceLength(0))) {
            for (Doc d : docs) {
                s.items++;
                for (int len : work.sequences(tok.encodeAll(d.text()).length())) {
                    s.realTokens += len;
                    s.paddedTokens += len;
                    s.usefulFlops += flops.sequence(len);
                    s.executedFlops += flops.sequence(len);
                }
            }
        }
        s.extra.put("maxLength", work.maxLength());
        s.extra.put("note", "embedAll of all texts; per-batch latency not observable; tokens and FLOPs"
                + " are those of the sequences it ran (its tokenizer.json truncates at " + work.maxLength() + ")");
        return s;
    }

    /** (4): our batcher + model runtime, no Flink: tokenize on one thread, infer on another. */
    Stats bareLoop(String model) throws Exception {
        ModelCard card = ModelCard.builtIn(model);
        try (TextTokenizer tok = TextTokenizer.load(card, options(threads));
                OnnxModel m = OnnxModel.load(card, options(threads))) {
            Flops flops = new Flops(card.shape);
            pipelined(docs.subList(0, WARMUP_DOCS), tok, m, flops, new Stats());
            Stats s = new Stats();
            long t0 = s.start();
            pipelined(docs, tok, m, flops, s);
            s.stop(t0);
            return s;
        }
    }

    private void pipelined(List<Doc> in, TextTokenizer tok, OnnxModel m, Flops flops, Stats s) throws Exception {
        BlockingQueue<int[]> queue = new ArrayBlockingQueue<>(1024);
        int[] end = new int[0];
        Thread producer = new Thread(() -> {
            try {
                for (Doc d : in) {
                    queue.put(tok.encode(d.text()).ids());
                }
                queue.put(end);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "tokenize");
        producer.start();
        LengthBucketBatcher<int[]> batcher = new LengthBucketBatcher<>(batching(), ids -> ids.length);
        while (true) {
            int[] ids = queue.take();
            if (ids == end) {
                break;
            }
            for (Batch<int[]> b : batcher.add(ids, System.nanoTime())) {
                runBatch(b, m, flops, s);
            }
        }
        for (Batch<int[]> b : batcher.flushAll()) {
            runBatch(b, m, flops, s);
        }
        producer.join();
    }

    BatchingConfig batching() {
        BatchingConfig b = BatchingConfig.defaults().withMaxBatchTokens(maxBatchTokens);
        int[] edges = variant.edges();
        return edges == null ? b : new BatchingConfig(edges, b.maxBatchTokens(), b.maxBatchSize(),
                b.maxBufferedItems(), b.lookaheadBatches(), b.maxWaitMillis());
    }

    private static void runBatch(Batch<int[]> b, OnnxModel m, Flops flops, Stats s) {
        long b0 = System.nanoTime();
        m.infer(b.items());
        record(s, b.items(), flops, (System.nanoTime() - b0) / 1e6);
    }

    /** (4'): the same thread budget as two single-threaded sessions, each with its own batcher. */
    Stats bareParallel() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        Flops flops = new Flops(card.shape);
        List<List<Doc>> parts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            parts.add(new ArrayList<>());
        }
        for (int i = 0; i < docs.size(); i++) {
            parts.get(i % threads).add(docs.get(i));
        }
        List<TextTokenizer> toks = new ArrayList<>();
        List<OnnxModel> models = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            toks.add(TextTokenizer.load(card, options(1)));
            models.add(OnnxModel.load(card, options(1)));
            sequential(docs.subList(0, WARMUP_DOCS), toks.get(t), models.get(t), flops, new Stats());
        }
        Stats s = new Stats();
        long t0 = s.start();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int i = t;
            Thread w = new Thread(() -> sequential(parts.get(i), toks.get(i), models.get(i), flops, s), "worker-" + t);
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        s.stop(t0);
        models.forEach(OnnxModel::close);
        toks.forEach(TextTokenizer::close);
        return s;
    }

    private void sequential(List<Doc> in, TextTokenizer tok, OnnxModel m, Flops flops, Stats s) {
        LengthBucketBatcher<int[]> batcher = new LengthBucketBatcher<>(batching(), ids -> ids.length);
        for (Doc d : in) {
            for (Batch<int[]> b : batcher.add(tok.encode(d.text()).ids(), System.nanoTime())) {
                runBatch(b, m, flops, s);
            }
        }
        for (Batch<int[]> b : batcher.flushAll()) {
            runBatch(b, m, flops, s);
        }
    }

    /** (5): the full Flink job on the embedded cluster: read, tokenize, batch, infer, write Parquet. */
    Stats flink(String model) throws Exception {
        Path input = BenchCorpus.writeJsonl(docs, Files.createTempFile(tmp, "corpus", ".jsonl"));
        Path out = Files.createTempDirectory(tmp, "flink-out");
        RunOptions o = new RunOptions();
        List<String> args = new ArrayList<>(List.of("--input", input.toString(), "--output", out.toString(),
                "--run-id", "bench", "--model", model, "--parallelism", String.valueOf(threads),
                "--intra-op-threads", "1", "--max-length", String.valueOf(maxLength),
                "--max-batch-tokens", String.valueOf(maxBatchTokens), "--progress-seconds", "0",
                "--device", DEVICE, "--optimization-level", variant.optimizationLevel()));
        variant.sessionConfig().forEach((k, v) -> args.addAll(List.of("--ort-config", k + "=" + v)));
        if (profilePrefix != null) {
            args.addAll(List.of("--ort-profile", profilePrefix));
        }
        if (variant.edges() != null) {
            args.addAll(List.of("--bucket-edges", variant.params().get("edges").replace('/', ',')));
        }
        if (variant.params().containsKey("overlap")) {
            args.addAll(List.of("--overlap", variant.params().get("overlap").toUpperCase(java.util.Locale.ROOT)));
        }
        if (variant.params().containsKey("tp")) {
            args.addAll(List.of("--tokenize-parallelism", variant.params().get("tp")));
        }
        if (variant.params().containsKey("mode")) {
            args.addAll(List.of("--runtime-mode", variant.params().get("mode").toUpperCase(java.util.Locale.ROOT)));
        }
        if (variant.params().containsKey("par")) { // inference subtasks (default: --threads)
            args.set(args.indexOf("--parallelism") + 1, variant.params().get("par"));
        }
        new CommandLine(o).parseArgs(args.toArray(String[]::new));
        ModelCard card = o.modelCard();
        Flops flops = card.shape == null ? null : new Flops(card.shape);
        SimulatedDeviceFactory sim = variant.base().equals("sim-device") ? simulatedDevice(o) : null;
        Stats s = new Stats();
        long cpu0 = s.start();
        var env = o.environment();
        var summary = sim == null ? EmbeddingJob.run(o, env)
                : io.github.flinkinfer.jobs.run.InferenceRun.execute(new io.github.flinkinfer.jobs.dataflow.EmbeddingTask(), o, env, sim);
        s.stop(cpu0);
        long firstReady = Long.MAX_VALUE;
        long lastEnd = 0;
        try (var files = Files.list(out.resolve("metrics"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    BatchMetrics m = BatchMetricsReader.parse(line);
                    int rows = m.items;
                    int paddedLen = (int) (m.paddedTokens / Math.max(1, rows));
                    double meanLen = (double) m.realTokens / Math.max(1, rows);
                    s.batch(rows, m.realTokens, paddedLen,
                            flops == null ? 0 : rows * flops.sequence((int) Math.round(meanLen)),
                            flops == null ? 0 : flops.batch(rows, paddedLen), m.totalMs);
                    if (m.modelLoadMs > 0) {
                        firstReady = Math.min(firstReady, m.subtaskOpenedAtMillis + m.modelLoadMs);
                    }
                    lastEnd = Math.max(lastEnd, m.startedAtMillis + (long) m.totalMs);
                }
            }
        }
        s.seconds = (lastEnd - firstReady) / 1000.0;
        s.windowStartMillis = firstReady;
        s.windowEndMillis = lastEnd;
        s.e2eSeconds = summary.wallSeconds;
        s.extra.put("timer", "models loaded -> last batch written (from metrics); e2e = env.execute wall");
        HostCeiling.describe(s, summary, o, sim);
        return s;
    }

    /** The simulated device of a {@code sim-device} contender, from its levers (HostCeiling.simulatedDevice). */
    private SimulatedDeviceFactory simulatedDevice(RunOptions o) {
        return HostCeiling.simulatedDevice(variant, ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()));
    }

    /**
     * (5'): the same pipeline through the SQL front door ({@code CREATE MODEL ... 'provider' =
     * 'onnx'} + ML_PREDICT, JSONL in and out) on the embedded cluster, timed like {@link #flink}:
     * models ready → last batch (in-JVM {@link PredictRecorder}) and the whole run as e2e.
     */
    Stats sql(String model) throws Exception {
        Flops flops = new Flops(ModelCard.builtIn(model).shape);
        Path input = BenchCorpus.writeJsonl(docs, Files.createTempFile(tmp, "corpus", ".jsonl"));
        Path out = Files.createTempDirectory(tmp, "sql-out");
        Stats s = new Stats();
        long cpu0 = s.start();
        PredictRecorder.start();
        SqlEmbedding.Result result = SqlEmbedding.run(input, out.resolve("embeddings"), model,
                threads, Map.of("intra-op-threads", "1", "max-length", String.valueOf(maxLength),
                        "max-batch-tokens", String.valueOf(maxBatchTokens)));
        PredictRecorder.Recording rec = PredictRecorder.stop();
        s.stop(cpu0);
        for (PredictRecorder.BatchRecord b : rec.batches()) {
            int paddedLen = (int) (b.paddedTokens() / Math.max(1, b.rows()));
            double meanLen = (double) b.realTokens() / Math.max(1, b.rows());
            s.batch(b.rows(), b.realTokens(), paddedLen,
                    b.rows() * flops.sequence((int) Math.round(meanLen)),
                    flops.batch(b.rows(), paddedLen), b.millis());
        }
        s.e2eSeconds = result.wallMillis() / 1000.0;
        s.seconds = rec.windowMillis() > 0 ? rec.windowMillis() / 1000.0 : s.e2eSeconds;
        s.extra.put("rowsBySubtask", rec.rowsBySubtask().toString());
        s.extra.put("timer", "models loaded -> last batch (PredictRecorder); e2e = SqlEmbedding.run"
                + " wall (planning, cluster, model load, job)");
        return s;
    }

    /** int8 variant of the bare loop, with its drift against fp32 on the same batches. */
    Stats int8() throws Exception {
        Stats s = bareLoop("all-minilm-l6-v2-q");
        ModelCard fp32 = ModelCard.builtIn("all-minilm-l6-v2");
        ModelCard q = ModelCard.builtIn("all-minilm-l6-v2-q");
        try (TextTokenizer tok = TextTokenizer.load(fp32, options(threads));
                OnnxModel a = OnnxModel.load(fp32, options(threads));
                OnnxModel b = OnnxModel.load(q, options(threads))) {
            LengthBucketBatcher<int[]> batcher = new LengthBucketBatcher<>(batching(), ids -> ids.length);
            List<Batch<int[]>> batches = new ArrayList<>();
            for (Doc d : docs.subList(0, Math.min(512, docs.size()))) {
                batches.addAll(batcher.add(tok.encode(d.text()).ids(), 0));
            }
            batches.addAll(batcher.flushAll());
            double min = 1;
            double sum = 0;
            int n = 0;
            for (Batch<int[]> batch : batches) {
                float[][] x = a.infer(batch.items()).vectors();
                float[][] y = b.infer(batch.items()).vectors();
                for (int i = 0; i < x.length; i++) {
                    double c = cosine(x[i], y[i]);
                    min = Math.min(min, c);
                    sum += c;
                    n++;
                }
            }
            s.extra.put("driftVsFp32MinCosine", min);
            s.extra.put("driftVsFp32MeanCosine", sum / n);
            s.extra.put("driftItems", n);
        }
        return s;
    }

    static double cosine(float[] a, float[] b) {
        return io.github.flinkinfer.runtime.Vectors.cosine(a, b);
    }
}
