package io.github.flinkinfer.bench;

import io.github.flinkinfer.bench.BenchCorpus.Doc;
import io.github.flinkinfer.bench.device.DeviceCost;
import io.github.flinkinfer.bench.device.SimulatedDevice;
import io.github.flinkinfer.bench.device.SimulatedDeviceFactory;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.io.EmbeddingParquetWriter;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.ContentHash;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;

/**
 * The host side of the job measured without a model's cost (issue 23): the benchmark fixture
 * model (a tiny graph with MiniLM's inputs and output, bench/fixture) in the full job
 * ({@code host-ceiling}), the same job on a simulated device ({@code sim-device}), and two of its
 * stages alone ({@code tokenize-only}, {@code write-only}). Per-core figures divide by the JVM's
 * cores ({@code availableProcessors}).
 */
final class HostCeiling {
    /** Written by bench/fixture/build-fixture-model.sh (the benchmark builds it on first use). */
    static final String FIXTURE_CARD = "bench/build/fixture-model/card.json";

    private HostCeiling() {}

    /**
     * The simulated device of a {@code sim-device} contender: levers {@code preset} (a measured
     * GPU, {@link DeviceCost#PRESETS}: {@code h200-fp16}, {@code h200-tf32}), {@code rate} (padded
     * tokens/s, default the preset's or 400,000), {@code launch} (µs per call, default the
     * preset's or 300), {@code devices} (default 1), in front of the fixture model's values.
     */
    static SimulatedDeviceFactory simulatedDevice(Variant v, ModelRuntimeFactory values) {
        DeviceCost base = v.params().containsKey("preset") ? DeviceCost.preset(v.params().get("preset"))
                : new DeviceCost(300, 400_000);
        DeviceCost cost = new DeviceCost(
                v.params().containsKey("launch") ? Double.parseDouble(v.params().get("launch")) : base.launchMicros(),
                v.params().containsKey("rate") ? Double.parseDouble(v.params().get("rate")) : base.paddedTokensPerSecond());
        int devices = Integer.parseInt(v.params().getOrDefault("devices", "1"));
        return new SimulatedDeviceFactory(values, "bench-" + ProcessHandle.current().pid(), devices, cost);
    }

    /** Adds a job's per-core rates, per-item phases, bound line and (simulated) device busy to its stats. */
    static void describe(Stats s, RunSummary summary, RunOptions o, SimulatedDeviceFactory sim) {
        int cores = Runtime.getRuntime().availableProcessors();
        s.extra.put("itemsPerSecondPerCore", s.items / s.seconds / cores);
        s.extra.put("realTokensPerSecondPerCore", s.realTokens / s.seconds / cores);
        s.extra.put("jobWideItemsPerSecond", summary.itemsPerSecond);
        s.extra.put("jobWideRealTokensPerSecondPerCore", summary.realTokensPerSecond / cores);
        s.extra.put("tokenizeParallelism", o.tokenizeParallelism);
        s.extra.put("inferenceParallelism", summary.subtasks);
        long items = Math.max(1, summary.succeeded);
        summary.phaseTotalsMs.forEach((phase, ms) ->
                s.extra.put("us/item " + phase.replace("Ms", ""), ms * 1000 / items));
        if (summary.bound != null) {
            s.extra.put("bound", summary.bound.bound());
            s.extra.put("boundLine", summary.bound.line());
            s.extra.put("deviceBusyFromLedger", summary.bound.deviceBusy());
        }
        if (sim != null) {
            String fleet = "bench-" + ProcessHandle.current().pid();
            long calls = Math.max(1, SimulatedDevice.fleetCallCount(fleet));
            int devices = sim.devices();
            s.extra.put("devices", devices);
            s.extra.put("deviceLaunchMicros", sim.cost().launchMicros());
            s.extra.put("devicePaddedTokensPerSecond", sim.cost().paddedTokensPerSecond());
            // what the device alone would do with this run's batches: calls × launch + padded tokens ÷ rate
            s.extra.put("deviceAloneItemsPerSecond", s.items / (SimulatedDevice.fleetBusyNanos(fleet) / 1e9 / devices));
            // simulated device time ÷ (the timed window × devices): window = models loaded → last batch
            s.extra.put("deviceBusy", SimulatedDevice.fleetBusyNanos(fleet) / 1e9 / (s.seconds * devices));
            s.extra.put("deviceQueueMsPerCall", SimulatedDevice.fleetQueuedNanos(fleet) / 1e6 / calls);
            s.extra.put("deviceCalls", calls);
        }
    }

    /**
     * {@code tokenize-only}: {@link TextTokenizer#encode} over the same documents, in {@code
     * threads} threads with a tokenizer each (every threads-th document). Timer: after the loads
     * and a 32-document warm-up per thread, until the last thread has encoded its last document.
     */
    static Stats tokenizeOnly(Contender c) throws Exception {
        ModelCard card = ModelCard.resolve(FIXTURE_CARD);
        List<TextTokenizer> toks = new ArrayList<>();
        for (int t = 0; t < c.threads; t++) {
            TextTokenizer tok = TextTokenizer.load(card, c.options(1));
            for (Doc d : c.docs.subList(0, Math.min(32, c.docs.size()))) {
                tok.encode(d.text());
            }
            toks.add(tok);
        }
        Stats s = new Stats();
        long[] tokens = new long[c.threads];
        List<Thread> workers = new ArrayList<>();
        long t0 = s.start();
        for (int t = 0; t < c.threads; t++) {
            int i = t;
            Thread w = new Thread(() -> {
                for (int k = i; k < c.docs.size(); k += c.threads) {
                    tokens[i] += toks.get(i).encode(c.docs.get(k).text()).ids().length;
                }
            }, "tokenize-" + t);
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        s.stop(t0);
        toks.forEach(TextTokenizer::close);
        s.items = c.docs.size();
        for (long n : tokens) {
            s.realTokens += n;
            s.paddedTokens += n;
        }
        perCore(s, c.threads);
        s.extra.put("timer", "tokenizers loaded + 32 warm-up documents each -> last encode returned; "
                + c.threads + " threads, one TextTokenizer each");
        return s;
    }

    /**
     * {@code write-only}: the job's Parquet writer ({@link EmbeddingParquetWriter}: ZSTD,
     * BYTE_STREAM_SPLIT) over prepared rows, one writer on one thread into a local file. The rows
     * (the fixture model's vectors, content hash and chunk reference as the job makes them) are
     * built before the timer; timer: from creating the writer to {@code finish()} returned.
     */
    static Stats writeOnly(Contender c) throws Exception {
        ModelCard card = ModelCard.resolve(FIXTURE_CARD);
        List<InferenceResult> rows = new ArrayList<>(c.docs.size());
        long tokens = 0;
        try (TextTokenizer tok = TextTokenizer.load(card, c.options(1));
                OnnxModel m = OnnxModel.load(card, c.options(1))) {
            for (Doc d : c.docs) {
                var t = tok.encode(d.text());
                InferenceResult r = new InferenceResult();
                r.id = d.id();
                r.source = "corpus.jsonl:" + rows.size();
                r.vector = m.infer(List.of(t.ids())).vectors()[0];
                r.tokenCount = t.ids().length;
                r.originalTokenCount = t.originalTokenCount();
                r.truncated = t.truncated();
                r.model = card.name;
                r.modelVersion = card.version;
                r.chunk = ChunkRef.document(d.id(), ContentHash.sha256(d.text()), "bench");
                rows.add(r);
                tokens += t.ids().length;
            }
        }
        Path file = Files.createTempFile(c.tmp, "write-only", ".parquet");
        Files.delete(file);
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path(file.toUri());
        Stats s = new Stats();
        long t0 = s.start();
        try (FSDataOutputStream out = FileSystem.getLocalFileSystem().create(path, FileSystem.WriteMode.OVERWRITE)) {
            BulkWriter<InferenceResult> w = new EmbeddingParquetWriter().create(out);
            for (InferenceResult r : rows) {
                w.addElement(r);
            }
            w.finish();
        }
        s.stop(t0);
        s.items = rows.size();
        s.realTokens = tokens;
        s.paddedTokens = tokens;
        perCore(s, 1);
        s.extra.put("bytes", Files.size(file));
        s.extra.put("timer", "writer created -> finish() returned, one thread, " + rows.size()
                + " prepared rows (vectors from the fixture model, made before the timer)");
        return s;
    }

    /** Rates per thread doing the work (each thread had a core to itself when cores >= threads). */
    private static void perCore(Stats s, int threads) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("threads", threads);
        m.put("itemsPerSecondPerThread", s.items / s.seconds / threads);
        m.put("realTokensPerSecondPerThread", s.realTokens / s.seconds / threads);
        s.extra.putAll(m);
    }
}
