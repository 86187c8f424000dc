package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.WindowOutcome;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.metrics.InferenceMetrics;
import io.github.flinkinfer.operators.metrics.QualitySample;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
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
 * Outputs#ERRORS}; a failed token window of a chunked document goes to {@link
 * Outputs#WINDOW_FAILURES} instead, to be counted with its document). Buffered items are kept in operator state, so a checkpointed (STREAMING) job
 * resumes with nothing lost; end of input flushes everything. This class only wires the roles to
 * Flink (state, timers, outputs): a {@link BatchExecutor} runs batches, a {@link BatchRecorder}
 * records them, a {@link QualitySampler} re-checks a sample.
 *
 * <p><b>Overlap</b> ({@link Overlap}): with it on, model calls run on one inference thread per
 * subtask while the task thread goes on reading, tokenizing (chained upstream) and batching the
 * next batch, and emits finished batches in order. At most {@link #IN_FLIGHT} batches are in
 * flight (a full hand-off blocks the task thread: backpressure, not buffering); they are drained
 * before each checkpoint barrier and at end of input, so state never holds a half-run batch. It
 * pays where the model runs on another device (a GPU idles while the CPU tokenizes); on CPU the
 * two threads compete for the same cores (see docs/benchmarks for the measurement).
 *
 * <pre>{@code
 * tokens.transform("batch-and-infer", TypeInformation.of(InferenceResult.class),
 *         BatchInferenceOperator.builder(model, batching, runId)
 *                 .cost(costModel).qualityGate(gate).overlap(Overlap.AUTO).build())
 *       .uid("batch-and-infer");
 * }</pre>
 */
public class BatchInferenceOperator extends AbstractStreamOperator<InferenceResult>
        implements OneInputStreamOperator<TokenizedDocument, InferenceResult>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** Name of the operator list state holding buffered documents (savepoints depend on it). */
    static final String BUFFERED_STATE = "buffered-documents";

    /** Name of the operator list state holding the quality sample (savepoints depend on it). */
    static final String QUALITY_STATE = "quality-sample";

    /** Batches handed to the inference thread and not yet emitted, at most. */
    static final int IN_FLIGHT = 2;

    private final ModelRuntimeFactory factory;
    private final BatchingConfig batching;
    private final String runId;
    private final CostModel costModel;
    private final QualityGate qualityGate;
    private final Overlap overlap;

    /** Whether model calls run beside the task thread; {@code auto} = only on a GPU. */
    public enum Overlap {
        AUTO, ON, OFF
    }

    private transient ModelRuntime runtime;
    private transient LengthBucketBatcher<TokenizedDocument> batcher;
    private transient BatchExecutor executor;
    private transient BatchRecorder recorder;
    private transient boolean inputArrived;
    private transient QualitySampler quality;
    private transient ListState<TokenizedDocument> bufferedState;
    private transient ListState<QualitySample> qualityState;
    private transient List<TokenizedDocument> restored;
    private transient List<QualitySample> restoredQuality;
    private transient StreamRecord<InferenceResult> reuse;
    private transient int subtask;
    private transient DevicePlacement.Lease placement;
    /** Read by the model-load gauge, registered before the load. */
    private transient volatile long modelLoadMillis;

    BatchInferenceOperator(ModelRuntimeFactory factory, BatchingConfig batching, String runId,
            CostModel costModel, QualityGate qualityGate, Overlap overlap) {
        this.factory = factory;
        this.batching = batching;
        this.runId = runId;
        this.costModel = costModel;
        this.qualityGate = qualityGate;
        this.overlap = overlap;
    }

    /** Starts a builder: the model, how to batch, and the run id written into every metric. */
    public static BatchInferenceOperatorBuilder builder(ModelRuntimeFactory model, BatchingConfig batching,
            String runId) {
        return new BatchInferenceOperatorBuilder(model, batching, runId);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        bufferedState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(BUFFERED_STATE, TypeInformation.of(TokenizedDocument.class)));
        qualityState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(QUALITY_STATE, TypeInformation.of(QualitySample.class)));
        restored = new ArrayList<>();
        restoredQuality = new ArrayList<>();
        if (context.isRestored()) {
            for (TokenizedDocument d : bufferedState.get()) {
                restored.add(d);
            }
            for (QualitySample s : qualityState.get()) {
                restoredQuality.add(s);
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        var task = getRuntimeContext().getTaskInfo();
        subtask = task.getIndexOfThisSubtask();
        long openedAtMillis = System.currentTimeMillis();
        // registered before the model loads: every series exists (at 0) while the subtask is up
        InferenceMetrics meters = new InferenceMetrics(getMetricGroup(), factory.card().name,
                BisectingRunner.REASONS, () -> modelLoadMillis,
                () -> batcher == null ? 0 : batcher.bufferedCount());
        placement = DevicePlacement.take(factory.options().device(),
                getRuntimeContext().getExternalResourceInfos(DevicePlacement.GPU_RESOURCE));
        Device requested = placement.device();
        // the chained tokenizer opens after this operator: its native library loads and its
        // tokenizer.json is parsed meanwhile (nothing to do where the driver prepared it)
        TextTokenizer.prepare(factory.card());
        long start = System.nanoTime();
        runtime = NonRecoverableLoadException.guard(() -> factory.open(requested));
        modelLoadMillis = (System.nanoTime() - start) / 1_000_000;
        BisectingRunner runner = new BisectingRunner(runtime);
        quality = QualitySampler.open(qualityGate, requested, subtask, task.getNumberOfParallelSubtasks(),
                restoredQuality);
        restoredQuality = null;
        batcher = new LengthBucketBatcher<>(batching, TokenizedDocument::tokenCount);
        reuse = new StreamRecord<>(null);
        boolean overlapped = overlap == Overlap.ON
                || (overlap == Overlap.AUTO && runtime.device().kind() == Device.Kind.CUDA);
        executor = overlapped
                ? BatchExecutor.overlapped(runner, this::emit, "inference-" + task.getTaskNameWithSubtasks(), IN_FLIGHT)
                : BatchExecutor.direct(runner, this::emit);
        recorder = new BatchRecorder(new BatchRecorder.Subtask(runId, subtask,
                task.getNumberOfParallelSubtasks(), runtime, requested.toString(), openedAtMillis,
                modelLoadMillis), costModel, meters);
        LOG.info("Subtask {} loaded model {} on {} (requested {}) in {} ms; overlap {}", subtask,
                runtime.card().id(), runtime.device(), requested, modelLoadMillis, overlapped ? "on" : "off");
        if (batching.maxWaitMillis() > 0) {
            long period = Math.max(1, batching.maxWaitMillis() / 2);
            getProcessingTimeService().scheduleWithFixedDelay(t -> {
                submitAll(batcher.flushExpired(System.nanoTime()));
                executor.emitFinished(false);
            }, period, period);
        }
        for (TokenizedDocument d : restored) {
            submitAll(batcher.add(d, System.nanoTime()));
        }
        restored = null;
    }

    @Override
    public void processElement(StreamRecord<TokenizedDocument> element) {
        if (!inputArrived) {
            inputArrived = true;
            recorder.firstInput(System.currentTimeMillis());
        }
        submitAll(batcher.add(element.getValue(), System.nanoTime()));
        executor.emitFinished(false);
    }

    @Override
    public void endInput() {
        submitAll(batcher.flushAll());
        executor.emitFinished(true);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        executor.emitFinished(true); // in-flight batches complete and emit before the barrier
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        bufferedState.update(batcher.bufferedItems());
        qualityState.update(qualityGate == null ? List.of() : List.of(quality.sample()));
    }

    private void submitAll(List<Batch<TokenizedDocument>> batches) {
        for (Batch<TokenizedDocument> b : batches) {
            executor.submit(b);
        }
    }

    /** Emits one run batch on the task thread: results, errors, then its metrics record. */
    private void emit(BatchRun run) {
        long writeStart = System.nanoTime();
        BisectingRunner.Outcome outcome = run.outcome();
        ModelCard card = runtime.card();
        for (int i = 0; i < outcome.succeeded.size(); i++) {
            output.collect(reuse.replace(result(outcome.succeeded.get(i), outcome.vectors.get(i), card)));
        }
        for (int i = 0; i < outcome.failed.size(); i++) {
            ErrorRecord e = outcome.failed.get(i);
            ChunkRef window = outcome.failedInputs.get(i).chunk;
            if (window != null && window.isChunk()) { // its document is counted once, downstream
                output.collect(Outputs.WINDOW_FAILURES, new StreamRecord<>(WindowOutcome.failed(e, window)));
            } else {
                output.collect(Outputs.ERRORS, new StreamRecord<>(e));
            }
            recorder.onError(e);
        }
        long end = System.nanoTime();
        BatchMetrics m = recorder.record(run, writeStart, end);
        quality.check(outcome, m);
        output.collect(Outputs.BATCH_METRICS, new StreamRecord<>(m));
        recorder.onBatch(m, outcome.succeeded.size());
    }

    private static InferenceResult result(TokenizedDocument d, float[] vector, ModelCard card) {
        InferenceResult r = new InferenceResult();
        r.id = d.id;
        r.source = d.source;
        r.vector = vector;
        r.tokenCount = d.tokenIds.length;
        r.originalTokenCount = d.originalTokenCount;
        r.truncated = d.truncated();
        r.model = card.name;
        r.modelVersion = card.version;
        r.chunk = d.chunk;
        return r;
    }

    @Override
    public void close() throws Exception {
        try {
            boolean idle = executor == null || executor.shutdown();
            if (runtime != null && idle) {
                runtime.close();
            } else if (runtime != null) {
                // a native call cannot be interrupted: closing its session under it could crash
                // the TaskManager, so leave it to the JVM (the task is failing or cancelled)
                LOG.warn("Subtask {}: a model call is still running after 1 min; not closing its"
                        + " session", subtask);
            }
            if (quality != null) {
                quality.close();
            }
        } finally {
            if (placement != null) {
                placement.close();
            }
            super.close();
        }
    }
}
