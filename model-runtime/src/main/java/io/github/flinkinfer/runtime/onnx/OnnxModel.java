package io.github.flinkinfer.runtime.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.JvmShared;
import io.github.flinkinfer.runtime.LoadTimes;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.postprocess.ModelOutput;
import io.github.flinkinfer.runtime.postprocess.PostProcessing;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ONNX transformer encoder behind {@link ModelRuntime}: pads the batch to its longest input
 * (segment ids of text pairs go to the graph's {@code token_type_ids}, zeros otherwise), runs the
 * session, then its {@link PostProcessing} steps (by default the card's: pooling, then L2
 * normalization or a classifier's activation). Input buffers are reused across batches to avoid
 * per-batch allocation. Not thread-safe: one instance per inference thread. With {@link
 * RuntimeOptions#sharesSession()} the instances of one JVM that load the same model file on the
 * same device with the same session options share one ONNX Runtime session ({@link SharedResources}; ORT runs concurrent calls on a session), while
 * each keeps its own buffers. Every session is warmed up once with a dummy batch when loaded.
 *
 * <pre>{@code
 * try (OnnxModel model = OnnxModel.load(ModelCard.resolve("all-minilm-l6-v2"), options)) {
 *     float[][] embeddings = model.infer(batch).vectors();
 * }
 * }</pre>
 */
public final class OnnxModel implements ModelRuntime {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OnnxModel.class);

    /** Sessions shared per JVM (a TaskManager, per job class loader). */
    private static final SharedResources<SessionKey, SharedSession> SESSIONS = JvmShared.slot("onnx.sessions",
            "one ONNX Runtime session per model file and settings, shared by the subtasks of a JVM",
            SharedResources::new, null); // each session closes with its last lease

    /** What makes two loads the same session: the model file, every session setting, and any pooling in the graph. */
    record SessionKey(String modelId, String sha256, RuntimeOptions session, String pooling) {
        static SessionKey of(ModelCard card, RuntimeOptions options) {
            return new SessionKey(card.id(), card.onnx.sha256(),
                    options.withMaxSequenceLength(0).withShareSession(null), DevicePooling.keyPart(card, options));
        }
    }

    /** A session held by the registry, with what its load cost. */
    record SharedSession(OrtSessions.Created created, LoadTimes times) implements AutoCloseable {
        /** The same session, marked as created ahead of its user. */
        SharedSession prepared() {
            return new SharedSession(created, times.asPrepared());
        }

        @Override
        public void close() throws OrtException {
            created.session().close();
        }
    }

    private final SharedResources.Lease<SharedSession> lease; // null: the session is ours alone
    private final ModelCard card;
    private final PostProcessing postProcessing;
    private final OrtSession session;
    private final Device device;
    private LoadTimes loadTimes;
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final boolean hasTokenTypes;
    /** The graph output read: the card's, or {@link DevicePooling#OUTPUT} where the graph pools. */
    private final String output;
    /** Whether the session pools ({@link DevicePooling}): its output is then one vector per input. */
    private final boolean pooledOnDevice;
    private long[] idsBuffer = new long[0];
    private long[] maskBuffer = new long[0];
    private long[] typesBuffer = new long[0];
    /** Width of a [batch, seq, width] float output that ORT writes into {@link #outBuffer}; -1: other outputs. */
    private final int pinnedWidth;
    /** Width of a [batch, width] float output (pooled) that ORT writes into {@link #outBuffer}; -1: other outputs. */
    private final int pinnedVectorWidth;
    /** Direct memory the graph's token-state output is written into (grown, never shrunk): no copy to the heap. */
    private FloatBuffer outBuffer;

    private OnnxModel(ModelCard card, PostProcessing postProcessing, SharedSession created,
            SharedResources.Lease<SharedSession> lease) {
        this.lease = lease;
        this.loadTimes = lease == null || lease.loadedHere() ? created.times() : LoadTimes.SHARED;
        this.card = card;
        this.postProcessing = java.util.Objects.requireNonNull(postProcessing, "post-processing");
        this.session = created.created().session();
        this.device = created.created().device();
        this.pooledOnDevice = session.getOutputNames().contains(DevicePooling.OUTPUT);
        this.output = pooledOnDevice ? DevicePooling.OUTPUT : card.output;
        this.hasTokenTypes =
                card.inputs.tokenTypeIds != null
                        && session.getInputNames().contains(card.inputs.tokenTypeIds);
        requireName(card.inputs.inputIds, session.getInputNames().contains(card.inputs.inputIds));
        requireName(
                card.inputs.attentionMask,
                session.getInputNames().contains(card.inputs.attentionMask));
        requireName(card.output, session.getOutputNames().contains(card.output));
        this.pinnedWidth = floatWidth(session, output, 3);
        this.pinnedVectorWidth = floatWidth(session, output, 2);
    }

    /**
     * The last dimension of {@code output} when it is a float tensor of {@code rank} dimensions
     * with a fixed last one ([batch, seq, width] token states to pool, or [batch, width] vectors),
     * else -1.
     */
    private static int floatWidth(OrtSession session, String output, int rank) {
        try {
            if (session.getOutputInfo().get(output).getInfo() instanceof ai.onnxruntime.TensorInfo t
                    && t.type == ai.onnxruntime.OnnxJavaType.FLOAT && t.getShape().length == rank
                    && t.getShape()[rank - 1] > 0) {
                return (int) t.getShape()[rank - 1];
            }
        } catch (OrtException e) {
            // no output metadata: the output is copied as before
        }
        return -1;
    }

    private void requireName(String name, boolean present) {
        if (!present) {
            closeQuietly();
            throw new IllegalArgumentException(
                    "Model '" + card.name + "' has no graph input/output named '" + name
                            + "' (inputs " + session.getInputNames() + ", outputs "
                            + session.getOutputNames() + ")");
        }
    }

    private void closeQuietly() {
        if (lease != null) {
            lease.close();
            return;
        }
        try {
            session.close();
        } catch (OrtException ignored) {
            // already failing; the name error is the one to report
        }
    }

    /** Verifies the card's checksums and creates the session; the card picks the post-processing. */
    public static OnnxModel load(ModelCard card, RuntimeOptions options) {
        return load(card, options, card.postProcessing());
    }

    /** Like {@link #load(ModelCard, RuntimeOptions)} with other post-processing steps. */
    public static OnnxModel load(ModelCard card, RuntimeOptions options, PostProcessing postProcessing) {
        if (card.task != ModelTask.EMBEDDING) {
            throw new IllegalArgumentException(
                    "Model '" + card.name + "' has task " + card.task
                            + "; this runtime supports embedding models (see ClassifierModel)");
        }
        return open(card, options, postProcessing);
    }

    /** Like {@link #load} for any task: a single-graph classifier's output is [batch, classes]. */
    static OnnxModel open(ModelCard card, RuntimeOptions options, PostProcessing postProcessing) {
        long start = System.nanoTime();
        OnnxModel model;
        SessionKey key = SessionKey.of(card, options);
        if (options.sharesSession()) {
            SharedResources.Lease<SharedSession> lease = SESSIONS.acquire(key,
                    () -> PreparedSessions.takeOr(key, () -> createSession(card, options)));
            model = new OnnxModel(card, postProcessing, lease.value(), lease);
        } else {
            model = new OnnxModel(card, postProcessing,
                    PreparedSessions.takeOr(key, () -> createSession(card, options)), null);
        }
        long loaded = System.nanoTime();
        boolean warmedHere;
        try {
            warmedHere = model.lease == null
                    ? run(model::warmUp)
                    : model.lease.warmUpOnce(model::warmUp);
        } catch (RuntimeException e) {
            model.close();
            throw new IllegalStateException(
                    "Warm-up batch failed for " + card.id() + " on " + model.device, e);
        }
        long end = System.nanoTime();
        if (warmedHere) {
            model.loadTimes = model.loadTimes.withWarmUp((end - loaded) / 1_000_000);
        }
        LOG.info("Model {} on {} (pooling {}): {} in {} ms, warm-up {}", card.id(), model.device,
                model.pooledOnDevice ? "in the graph" : "on the host",
                model.lease == null ? (model.loadTimes.prepared() ? "prepared session taken" : "session loaded")
                        : model.lease.loadedHere() ? "shared session loaded"
                        : "shared session reused (" + model.lease.users() + " users)",
                (loaded - start) / 1_000_000,
                warmedHere ? (end - loaded) / 1_000_000 + " ms" : "done earlier");
        return model;
    }

    private static boolean run(Runnable r) {
        r.run();
        return true;
    }

    /** Verifies the model file(s), then creates the session; both timed. */
    static SharedSession createSession(ModelCard card, RuntimeOptions options) {
        return createSession(card, options, () -> {});
    }

    /**
     * {@link #createSession(ModelCard, RuntimeOptions)}, running {@code verified} once the bytes
     * it will load have passed their check (before the session is created from them).
     */
    static SharedSession createSession(ModelCard card, RuntimeOptions options, Runnable verified) {
        OrtSessions.useNatives(options); // before the graph cache's key asks ORT its version
        try {
            long start = System.nanoTime();
            if (!card.externalData.isEmpty()) {
                java.nio.file.Path graph = ModelFiles.verifiedGraphWithExternalData(card, card.onnx);
                verified.run();
                long read = System.nanoTime();
                OrtSessions.Created created = OrtSessions.create(graph, options);
                return new SharedSession(created, times(start, read, System.nanoTime(), "off"));
            }
            OptimizedGraphCache cache = OptimizedGraphCache.applies(card, options)
                    ? OptimizedGraphCache.configured() : null;
            if (cache == null) {
                byte[] bytes = ModelFiles.readVerified(card, card.onnx);
                verified.run();
                long read = System.nanoTime();
                OrtSessions.Created created = OrtSessions.create(DevicePooling.applyIfWanted(bytes, card, options), options);
                return new SharedSession(created, times(start, read, System.nanoTime(), "off"));
            }
            return createCached(card, options, cache, start, verified);
        } catch (OrtException e) {
            throw new IllegalStateException("Cannot create ONNX session for " + card.id(), e);
        }
    }

    /**
     * A hit loads the optimized graph with optimization off, once its bytes match the sha256
     * recorded when it was written (a changed entry is refused), and skips reading the original (it
     * was verified when the entry was written, and the entry is keyed by its sha256); a miss, or a
     * hit ORT cannot load, verifies and optimizes the original and writes the entry.
     */
    private static SharedSession createCached(
            ModelCard card, RuntimeOptions options, OptimizedGraphCache cache, long start, Runnable verified)
            throws OrtException {
        java.nio.file.Path entry = cache.entry(card, options);
        if (OptimizedGraphCache.present(entry)) {
            try {
                OptimizedGraphCache.verify(entry);
            } catch (java.io.IOException e) {
                throw new ModelIntegrityException("Cannot read optimized-graph cache entry " + entry + ": " + e, e);
            }
            verified.run();
            try {
                OrtSessions.Created created = OrtSessions.createOptimized(entry, options);
                return new SharedSession(created, times(start, start, System.nanoTime(), "hit"));
            } catch (OrtException | RuntimeException e) {
                LOG.warn("Cached optimized graph {} of {} does not load ({}); optimizing again",
                        entry, card.id(), e.getMessage());
                OptimizedGraphCache.deleteQuietly(entry);
            }
        }
        byte[] bytes = DevicePooling.applyIfWanted(ModelFiles.readVerified(card, card.onnx), card, options);
        verified.run();
        long read = System.nanoTime();
        java.nio.file.Path written;
        try {
            written = cache.newTemporary();
        } catch (java.io.IOException e) {
            LOG.warn("Optimized-graph cache not written ({}); loading {} without it", e.getMessage(), card.id());
            OrtSessions.Created created = OrtSessions.create(bytes, options);
            return new SharedSession(created, times(start, read, System.nanoTime(), "off"));
        }
        try {
            OrtSessions.Created created = OrtSessions.createSaving(bytes, options, written);
            long done = System.nanoTime();
            try {
                OptimizedGraphCache.publish(written, entry);
            } catch (java.io.IOException e) {
                LOG.warn("Optimized graph of {} not cached: {}", card.id(), e.getMessage());
            }
            return new SharedSession(created, times(start, read, done, "miss"));
        } finally {
            OptimizedGraphCache.deleteQuietly(written); // gone after the move; left only on failure
        }
    }

    private static LoadTimes times(long start, long read, long created, String graphCache) {
        return new LoadTimes((read - start) / 1_000_000, (created - read) / 1_000_000, 0, graphCache, false);
    }

    /**
     * Runs one small dummy batch (one row of eight token id 0s), so the first real batch does not
     * pay for lazy initialization (CUDA context, memory arena, kernel selection).
     */
    private void warmUp() {
        infer(List.of(new int[Math.max(1, Math.min(8, card.maxSequenceLength))]));
    }

    /** Whether the graph pools ({@link DevicePooling}), so the host does not. */
    public boolean pooledOnDevice() {
        return pooledOnDevice;
    }

    /** The ONNX Runtime session (shared or not); for tests. */
    OrtSession ortSession() {
        return session;
    }

    /** The JVM's shared sessions; for tests. */
    static SharedResources<SessionKey, SharedSession> sharedSessions() {
        return SESSIONS;
    }

    /** The steps run after the session. */
    public PostProcessing postProcessing() {
        return postProcessing;
    }

    @Override
    public Inference infer(List<int[]> batch) {
        return infer(batch, null);
    }

    @Override
    public Inference infer(List<int[]> batch, List<int[]> segmentIds) {
        long t0 = System.nanoTime();
        int rows = batch.size();
        if (segmentIds != null && segmentIds.size() != rows) {
            throw new IllegalArgumentException(
                    segmentIds.size() + " segment id rows for " + rows + " inputs");
        }
        int cols = 0;
        int[] lengths = new int[rows];
        for (int r = 0; r < rows; r++) {
            lengths[r] = batch.get(r).length;
            cols = Math.max(cols, lengths[r]);
        }
        int n = rows * cols;
        ensureCapacity(n);
        for (int r = 0; r < rows; r++) {
            int[] ids = batch.get(r);
            int[] segments = segmentIds == null ? null : segmentsOf(segmentIds.get(r), ids.length);
            int base = r * cols;
            for (int c = 0; c < cols; c++) {
                boolean real = c < ids.length;
                idsBuffer[base + c] = real ? ids[c] : 0L;
                maskBuffer[base + c] = real ? 1L : 0L;
                typesBuffer[base + c] = real && segments != null ? segments[c] : 0L;
            }
        }
        long[] shape = {rows, cols};
        Map<String, OnnxTensor> inputs = new HashMap<>(4);
        try {
            inputs.put(card.inputs.inputIds, tensor(idsBuffer, n, shape));
            inputs.put(card.inputs.attentionMask, tensor(maskBuffer, n, shape));
            if (hasTokenTypes) {
                inputs.put(card.inputs.tokenTypeIds, tensor(typesBuffer, n, shape));
            }
            long t1 = System.nanoTime();
            ModelOutput output = run(inputs, rows, cols, lengths);
            long t2 = System.nanoTime();
            float[][] vectors = postProcessing.apply(output);
            return new Inference(vectors, t1 - t0, t2 - t1, System.nanoTime() - t2);
        } catch (OrtException | RuntimeException e) {
            throw InferenceException.from(e);
        } catch (OutOfMemoryError e) {
            throw InferenceException.from(e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    /**
     * The session run: a [batch, seq, width] token-state output lands in {@link #pinnedOutput}
     * (ORT writes it there), and so does a [batch, width] one (pooled vectors or logits), whose
     * rows are then copied once to the heap; any other output is copied out of ORT's tensor.
     */
    private ModelOutput run(Map<String, OnnxTensor> inputs, int rows, int cols, int[] lengths) throws OrtException {
        if (pinnedWidth > 0) {
            FloatBuffer states = pinnedOutput(rows * cols * pinnedWidth);
            try (OnnxTensor out = OnnxTensor.createTensor(env, states, new long[] {rows, cols, pinnedWidth});
                    OrtSession.Result ignored = session.run(inputs, Set.of(), Map.of(output, out))) {
                return new ModelOutput.TokenVectors(states, rows, cols, pinnedWidth, lengths);
            }
        }
        if (pinnedVectorWidth > 0) { // pooled: each row copied once, from where ORT wrote it
            FloatBuffer vectors = pinnedOutput(rows * pinnedVectorWidth);
            try (OnnxTensor out = OnnxTensor.createTensor(env, vectors, new long[] {rows, pinnedVectorWidth});
                    OrtSession.Result ignored = session.run(inputs, Set.of(), Map.of(output, out))) {
                return new ModelOutput.Vectors(rows(vectors, rows, pinnedVectorWidth));
            }
        }
        try (OrtSession.Result result = session.run(inputs, Set.of(output))) {
            OnnxTensor out = (OnnxTensor) result.get(0);
            long[] outShape = out.getInfo().getShape();
            return outShape.length == 2
                    ? new ModelOutput.Vectors(rows(out.getFloatBuffer(), rows, (int) outShape[1]))
                    : new ModelOutput.TokenVectors(out.getFloatBuffer(), rows, cols,
                            (int) outShape[outShape.length - 1], lengths);
        }
    }

    private static int[] segmentsOf(int[] segments, int tokens) {
        if (segments.length != tokens) {
            throw new IllegalArgumentException(segments.length + " segment ids for " + tokens + " tokens");
        }
        return segments;
    }

    private OnnxTensor tensor(long[] data, int n, long[] shape) throws OrtException {
        return OnnxTensor.createTensor(env, LongBuffer.wrap(data, 0, n), shape);
    }

    /**
     * {@code floats} of direct memory for ORT to write the token states into (the graph's output
     * tensor, pinned): pooling then reads them where ORT wrote them, instead of from a heap copy
     * of the whole padded [batch, seq, width] tensor that {@code getFloatBuffer} allocates per call
     * (measured with the benchmark fixture model: about 21 µs per item at 80 tokens).
     */
    private FloatBuffer pinnedOutput(int floats) {
        if (outBuffer == null || outBuffer.capacity() < floats) {
            outBuffer = java.nio.ByteBuffer.allocateDirect(Math.multiplyExact(floats, Float.BYTES))
                    .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        }
        return outBuffer.duplicate().clear().limit(floats).slice();
    }

    private void ensureCapacity(int n) {
        if (idsBuffer.length < n) {
            idsBuffer = new long[n];
            maskBuffer = new long[n];
            typesBuffer = new long[n];
        }
    }

    /** An already pooled [rows, width] output (sentence embedding or logits), copied per row. */
    private static float[][] rows(FloatBuffer out, int rows, int width) {
        float[][] vectors = new float[rows][width];
        for (int r = 0; r < rows; r++) {
            out.get(r * width, vectors[r], 0, width);
        }
        return vectors;
    }

    @Override
    public ModelCard card() {
        return card;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public LoadTimes loadTimes() {
        return loadTimes;
    }

    @Override
    public void close() {
        if (lease != null) {
            lease.close(); // closes the session with its last user
            return;
        }
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("Cannot close session of " + card.id(), e);
        }
    }
}
