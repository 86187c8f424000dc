package io.github.flinkinfer.operators;

import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.metrics.InferenceMetrics;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelRuntime;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Batches tokenized documents per subtask with a {@link LengthBucketBatcher} and runs each batch
 * through the model, emitting one {@link InferenceResult} per input, one {@link BatchMetrics} per
 * batch ({@link Outputs#BATCH_METRICS}) and an {@link ErrorRecord} per failed input ({@link
 * Outputs#ERRORS}). Buffered items are kept in operator state, so a checkpointed (STREAMING) job
 * resumes with nothing lost; end of input flushes everything.
 *
 * <p><b>Overlap</b> ({@link Overlap}): with it on, model calls run on one inference thread per
 * subtask while the task thread goes on reading, tokenizing (chained upstream) and batching the
 * next batch, and emits finished batches in order. At most {@link #IN_FLIGHT} batches are in
 * flight (a full hand-off blocks the task thread: backpressure, not buffering); they are drained
 * before each checkpoint barrier and at end of input, so state never holds a half-run batch. It
 * pays where the model runs on another device (a GPU idles while the CPU tokenizes); on CPU the
 * two threads compete for the same cores (see docs/benchmarks for the measurement).
 */
public class BatchInferenceOperator extends AbstractStreamOperator<InferenceResult>
        implements OneInputStreamOperator<TokenizedDocument, InferenceResult>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final ModelRuntimeFactory factory;
    private final BatchingConfig batching;
    private final String runId;
    private final CostModel costModel;
    private QualityGate qualityGate;
    private Overlap overlap = Overlap.AUTO;

    /** Whether model calls run beside the task thread; {@code auto} = only on a GPU. */
    public enum Overlap {
        AUTO, ON, OFF
    }

    /** Batches handed to the inference thread and not yet emitted, at most. */
    static final int IN_FLIGHT = 2;

    /** A batch on the inference thread: its outcome and when the model call started. */
    private record Pending(
            Batch<TokenizedDocument> batch,
            java.util.concurrent.Future<BisectingRunner.Outcome> outcome,
            long[] startedAt) {}

    private transient java.util.concurrent.ExecutorService inferenceThread;
    private transient java.util.ArrayDeque<Pending> inFlight;

    private transient ModelRuntime runtime;
    private transient BisectingRunner runner;
    private transient LengthBucketBatcher<TokenizedDocument> batcher;
    private transient ListState<TokenizedDocument> bufferedState;
    private transient List<TokenizedDocument> restored;
    private transient StreamRecord<InferenceResult> reuse;
    private transient long batchSeq;
    private transient int subtask;
    private transient InferenceMetrics metrics;
    private transient ModelRuntime reference;
    private transient int qualityLeft;
    private transient long openedAtMillis;
    private transient boolean loadReported;
    private transient volatile long modelLoadMillis;
    private transient String deviceRequested;

    public BatchInferenceOperator(ModelRuntimeFactory factory, BatchingConfig batching, String runId) {
        this(factory, batching, runId, CostModel.FREE);
    }

    public BatchInferenceOperator(
            ModelRuntimeFactory factory, BatchingConfig batching, String runId, CostModel costModel) {
        this.factory = factory;
        this.batching = batching;
        this.runId = runId;
        this.costModel = costModel;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        bufferedState =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "buffered-documents",
                                        TypeInformation.of(TokenizedDocument.class)));
        restored = new java.util.ArrayList<>();
        if (context.isRestored()) {
            for (TokenizedDocument d : bufferedState.get()) {
                restored.add(d);
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        openedAtMillis = System.currentTimeMillis();
        // registered before the model loads: every series exists (at 0) while the subtask is up
        metrics = new InferenceMetrics(getMetricGroup(), factory.card().name, BisectingRunner.REASONS,
                () -> modelLoadMillis, () -> batcher == null ? 0 : batcher.bufferedCount());
        Device requested =
                DevicePlacement.place(
                        factory.options().device(),
                        getRuntimeContext().getExternalResourceInfos(DevicePlacement.GPU_RESOURCE),
                        subtask);
        deviceRequested = requested.toString();
        long start = System.nanoTime();
        runtime = factory.open(requested);
        modelLoadMillis = (System.nanoTime() - start) / 1_000_000;
        runner = new BisectingRunner(runtime);
        if (qualityGate != null) {
            reference = qualityGate.reference().open(requested);
            int p = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            int total = qualityGate.samples();
            qualityLeft = total / p + (subtask < total % p ? 1 : 0); // the sample, split exactly
        }
        batcher = new LengthBucketBatcher<>(batching, TokenizedDocument::tokenCount);
        reuse = new StreamRecord<>(null);
        inFlight = new java.util.ArrayDeque<>();
        if (overlap == Overlap.ON
                || (overlap == Overlap.AUTO && runtime.device().kind() == Device.Kind.CUDA)) {
            String name = "inference-" + getRuntimeContext().getTaskInfo().getTaskNameWithSubtasks();
            inferenceThread = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        LOG.info(
                "Subtask {} loaded model {} on {} (requested {}) in {} ms; overlap {}", subtask,
                runtime.card().id(), runtime.device(), requested, modelLoadMillis,
                inferenceThread != null ? "on" : "off");
        if (batching.maxWaitMillis() > 0) {
            long period = Math.max(1, batching.maxWaitMillis() / 2);
            getProcessingTimeService()
                    .scheduleWithFixedDelay(t -> {
                        runAll(batcher.flushExpired(System.nanoTime()));
                        emitFinished(false);
                    }, period, period);
        }
        for (TokenizedDocument d : restored) {
            runAll(batcher.add(d, System.nanoTime()));
        }
        restored = null;
    }

    @Override
    public void processElement(StreamRecord<TokenizedDocument> element) {
        runAll(batcher.add(element.getValue(), System.nanoTime()));
        emitFinished(false);
    }

    @Override
    public void endInput() {
        runAll(batcher.flushAll());
        emitFinished(true);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        emitFinished(true); // in-flight batches complete and emit before the barrier
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        bufferedState.update(batcher.bufferedItems());
    }

    private void runAll(List<Batch<TokenizedDocument>> batches) {
        for (Batch<TokenizedDocument> b : batches) {
            runBatch(b);
        }
    }

    private void runBatch(Batch<TokenizedDocument> batch) {
        if (inferenceThread == null) {
            long startNanos = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            emit(batch, runner.run(batch.items()), startNanos, startMillis);
            return;
        }
        long[] startedAt = new long[2];
        inFlight.add(new Pending(batch, inferenceThread.submit(() -> {
            startedAt[0] = System.nanoTime();
            startedAt[1] = System.currentTimeMillis();
            return runner.run(batch.items());
        }), startedAt));
        while (inFlight.size() > IN_FLIGHT) {
            emitOldest();
        }
    }

    /** Emits finished in-flight batches in order; with {@code all}, waits for every one. */
    private void emitFinished(boolean all) {
        while (inFlight != null && !inFlight.isEmpty() && (all || inFlight.peek().outcome().isDone())) {
            emitOldest();
        }
    }

    private void emitOldest() {
        Pending p = inFlight.poll();
        BisectingRunner.Outcome outcome;
        try {
            outcome = p.outcome().get(); // the Future's happens-before makes startedAt visible
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for a batch", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("Batch failed on the inference thread", e.getCause());
        }
        emit(p.batch(), outcome, p.startedAt()[0], p.startedAt()[1]);
    }

    private void emit(Batch<TokenizedDocument> batch, BisectingRunner.Outcome outcome,
            long startNanos, long startMillis) {
        long writeStart = System.nanoTime();
        ModelCard card = runtime.card();
        for (int i = 0; i < outcome.succeeded.size(); i++) {
            TokenizedDocument d = outcome.succeeded.get(i);
            InferenceResult r = new InferenceResult();
            r.id = d.id;
            r.source = d.source;
            r.vector = outcome.vectors.get(i);
            r.tokenCount = d.tokenIds.length;
            r.originalTokenCount = d.originalTokenCount;
            r.truncated = d.truncated();
            r.model = card.name;
            r.modelVersion = card.version;
            r.chunk = d.chunk;
            output.collect(reuse.replace(r));
        }
        for (ErrorRecord e : outcome.failed) {
            output.collect(Outputs.ERRORS, new StreamRecord<>(e));
            metrics.onError(e.reason);
        }
        long end = System.nanoTime();
        BatchMetrics m = record(batch, outcome, startNanos, startMillis, writeStart, end);
        checkQuality(outcome, m);
        output.collect(Outputs.BATCH_METRICS, new StreamRecord<>(m));
        metrics.onBatch(outcome.succeeded.size(), m.realTokens, m.paddedTokens, m.retries,
                m.queueWaitMs, m.tokenizeMs, m.inferenceMs, m.totalMs, m.costBusy);
    }

    /** Sets overlap of model calls with the task thread (see class doc); call before the job starts. */
    public BatchInferenceOperator withOverlap(Overlap overlap) {
        this.overlap = java.util.Objects.requireNonNull(overlap);
        return this;
    }

    /** Sets the reference check (see {@link QualityGate}); call before the job starts. */
    public BatchInferenceOperator withQualityGate(QualityGate gate) {
        this.qualityGate = gate;
        return this;
    }

    /** Re-runs this batch's first items through the reference while the subtask's quota lasts. */
    private void checkQuality(BisectingRunner.Outcome outcome, BatchMetrics m) {
        if (reference == null || qualityLeft <= 0) {
            return;
        }
        m.qualityMin = 1.0;
        for (int i = 0; i < outcome.succeeded.size() && qualityLeft > 0; i++, qualityLeft--) {
            double score = QualityGate.compare(reference, outcome.succeeded.get(i).tokenIds, outcome.vectors.get(i));
            m.qualityChecked++;
            m.qualitySum += score;
            m.qualityMin = Math.min(m.qualityMin, score);
        }
        m.qualityMetric = reference.card().task == io.github.flinkinfer.runtime.Task.CLASSIFICATION
                ? "label_agreement" : "cosine";
    }

    private BatchMetrics record(
            Batch<TokenizedDocument> batch,
            BisectingRunner.Outcome outcome,
            long startNanos,
            long startMillis,
            long writeStart,
            long end) {
        BatchMetrics m = new BatchMetrics();
        m.runId = runId;
        m.subtask = subtask;
        m.batchId = runId + "-" + subtask + "-" + (batchSeq++);
        m.bucket = batch.bucket();
        m.bucketEdge = batch.bucketEdge();
        m.items = batch.size();
        m.failedItems = outcome.failed.size();
        m.realTokens = batch.realTokens();
        m.paddedTokens = batch.paddedTokens();
        m.paddingEfficiency = batch.paddingEfficiency();
        m.queueWaitMs = millis(startNanos - batch.oldestEnqueueNanos());
        long tokenizeNanos = 0;
        for (TokenizedDocument d : batch.items()) {
            tokenizeNanos += d.tokenizeNanos;
        }
        m.tokenizeMs = millis(tokenizeNanos);
        m.tensorMs = millis(outcome.tensorNanos);
        m.inferenceMs = millis(outcome.runNanos);
        m.postprocessMs = millis(outcome.postNanos);
        m.writeMs = millis(end - writeStart);
        m.totalMs = millis(end - startNanos);
        double seconds = Math.max(1e-9, (end - startNanos) / 1e9);
        m.itemsPerSecond = outcome.succeeded.size() / seconds;
        m.realTokensPerSecond = batch.realTokens() / seconds;
        m.retries = outcome.retries();
        m.attempt = 1;
        m.startedAtMillis = startMillis;
        m.model = runtime.card().id();
        m.device = runtime.device().toString();
        m.deviceRequested = deviceRequested;
        m.subtasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        m.subtaskOpenedAtMillis = openedAtMillis;
        if (!loadReported) {
            m.modelLoadMs = modelLoadMillis; // once per subtask: the report charges it as load
            loadReported = true;
        }
        boolean onGpu = runtime.device().kind() == Device.Kind.CUDA;
        m.subtaskPricePerHour = costModel.subtaskPricePerHour(onGpu);
        m.costBusy = costModel.cost(m.totalMs, onGpu);
        m.referencePricePer1MTokens = costModel.referencePricePer1MTokens();
        m.currency = costModel.currency();
        return m;
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    @Override
    public void close() throws Exception {
        try {
            boolean idle = true;
            if (inferenceThread != null) {
                inferenceThread.shutdownNow(); // after endInput nothing is left; on failure, stop
                idle = inferenceThread.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            }
            if (runtime != null && idle) {
                runtime.close();
            } else if (runtime != null) {
                // a native call cannot be interrupted: closing its session under it could crash
                // the TaskManager, so leave it to the JVM (the task is failing or cancelled)
                LOG.warn("Subtask {}: a model call is still running after 1 min; not closing its"
                        + " session", subtask);
            }
            if (reference != null) {
                reference.close();
            }
        } finally {
            super.close();
        }
    }
}
