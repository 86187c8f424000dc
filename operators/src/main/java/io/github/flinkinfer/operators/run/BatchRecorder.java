package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.metrics.InferenceMetrics;
import io.github.flinkinfer.operators.metrics.ProcessCpu;
import io.github.flinkinfer.operators.tokenize.TokenizerLoads;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.LoadTimes;
import io.github.flinkinfer.runtime.ModelRuntime;

/**
 * Turns one run batch into its {@link BatchMetrics} record (timers, padding, retries, device,
 * cost under the run's {@link CostModel}) and updates the subtask's live meters, so the record
 * written to {@code metrics/} and the exported meters come from the same numbers.
 */
final class BatchRecorder {
    /** Who records: the run, the subtask and the model it opened. */
    record Subtask(String runId, int index, int parallelism, ModelRuntime runtime,
            String deviceRequested, long openedAtMillis, long modelLoadMillis) {}

    private final Subtask subtask;
    private final CostModel costModel;
    private final InferenceMetrics meters;
    private final boolean onGpu;
    private long batchSeq;
    private boolean loadReported;
    private long firstInputAtMillis;
    private boolean inputReported;

    BatchRecorder(Subtask subtask, CostModel costModel, InferenceMetrics meters) {
        this.subtask = subtask;
        this.costModel = costModel;
        this.meters = meters;
        this.onGpu = subtask.runtime().device().kind() == Device.Kind.CUDA;
    }

    /** Notes that the subtask's first input arrived at {@code atMillis} (epoch). */
    void firstInput(long atMillis) {
        firstInputAtMillis = atMillis;
    }

    /** Counts one failed input by {@code stage/reason}. */
    void onError(ErrorRecord e) {
        meters.onError(e.reason);
    }

    /** The batch's record; {@code writeStart} and {@code end} bracket handing its results on. */
    BatchMetrics record(BatchRun run, long writeStart, long end) {
        Batch<TokenizedDocument> batch = run.batch();
        BisectingRunner.Outcome outcome = run.outcome();
        BatchMetrics m = new BatchMetrics();
        m.runId = subtask.runId();
        m.subtask = subtask.index();
        m.batchId = subtask.runId() + "-" + subtask.index() + "-" + (batchSeq++);
        m.bucket = batch.bucket();
        m.bucketEdge = batch.bucketEdge();
        m.items = batch.size();
        m.failedItems = outcome.failed.size();
        m.realTokens = batch.realTokens();
        m.paddedTokens = batch.paddedTokens();
        m.paddingEfficiency = batch.paddingEfficiency();
        m.queueWaitMs = millis(run.startNanos() - batch.oldestEnqueueNanos());
        long tokenizeNanos = 0;
        for (TokenizedDocument d : batch.items()) {
            tokenizeNanos += d.tokenizeNanos;
        }
        m.tokenizeMs = millis(tokenizeNanos);
        m.tensorMs = millis(outcome.tensorNanos);
        m.inferenceMs = millis(outcome.runNanos);
        m.postprocessMs = millis(outcome.postNanos);
        m.writeMs = millis(end - writeStart);
        m.totalMs = millis(end - run.startNanos());
        double seconds = Math.max(1e-9, (end - run.startNanos()) / 1e9);
        m.itemsPerSecond = outcome.succeeded.size() / seconds;
        m.realTokensPerSecond = batch.realTokens() / seconds;
        m.retries = outcome.retries();
        m.attempt = 1;
        m.startedAtMillis = run.startMillis();
        ModelRuntime runtime = subtask.runtime();
        m.model = runtime.card().id();
        m.device = runtime.device().toString();
        m.deviceRequested = subtask.deviceRequested();
        m.subtasks = subtask.parallelism();
        m.subtaskOpenedAtMillis = subtask.openedAtMillis();
        m.graphCache = subtask.runtime().loadTimes().graphCache();
        if (!inputReported && firstInputAtMillis > 0) {
            m.firstInputAtMillis = firstInputAtMillis;
            inputReported = true;
        }
        if (!loadReported) {
            m.modelLoadMs = subtask.modelLoadMillis(); // once per subtask: the report charges it as load
            LoadTimes phases = subtask.runtime().loadTimes();
            m.modelReadMs = phases.readMillis();
            m.sessionCreateMs = phases.sessionMillis();
            m.warmUpMs = phases.warmUpMillis();
            m.sessionPrepared = phases.prepared();
            m.tokenizerLoadMs = TokenizerLoads.take(m.model, subtask.index());
            loadReported = true;
        }
        m.processCpuMs = ProcessCpu.millis();
        m.process = ProcessCpu.PROCESS;
        m.processCores = ProcessCpu.cores();
        m.subtaskPricePerHour = costModel.subtaskPricePerHour(onGpu);
        m.costBusy = costModel.cost(m.totalMs, onGpu);
        m.referencePricePer1MTokens = costModel.referencePricePer1MTokens();
        m.currency = costModel.currency();
        return m;
    }

    /** Updates the live meters with a recorded batch ({@code succeeded} items came out). */
    void onBatch(BatchMetrics m, int succeeded) {
        meters.onBatch(succeeded, m.realTokens, m.paddedTokens, m.retries, m.queueWaitMs,
                m.tokenizeMs, m.inferenceMs, m.totalMs, m.costBusy);
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
