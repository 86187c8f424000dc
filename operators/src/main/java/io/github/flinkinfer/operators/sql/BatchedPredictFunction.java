package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.kinds.RowKind;
import io.github.flinkinfer.operators.run.BisectingRunner;
import io.github.flinkinfer.operators.run.DevicePlacement;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.functions.AsyncPredictFunction;
import org.apache.flink.table.functions.FunctionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ML_PREDICT for the {@code onnx} provider. The task thread tokenizes each row with the model
 * kind's rule ({@link RowKind#encode}, as {@code TokenizeFunction} does in the DataStream job) and
 * queues it; the subtask's {@link
 * PredictWorker} batches rows by length and runs them. Inputs that fail (NULL/empty text,
 * over-long with REJECT, tokenizer or model failure after bisecting) complete with a row of NULL
 * values and an {@code error} code, never a job failure. Public only because the planner's
 * generated code refers to it; create it through {@link OnnxModelProviderFactory}.
 */
public final class BatchedPredictFunction extends AsyncPredictFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(BatchedPredictFunction.class);

    private final PredictSetup setup;
    private final int capacity;

    private transient TextTokenizer tokenizer;
    private transient ModelRuntime runtime;
    private transient PredictWorker worker;
    private transient DevicePlacement.Lease placement;
    private transient long sequence;
    private transient String subtaskPrefix;

    BatchedPredictFunction(PredictSetup setup, int capacity) {
        this.setup = setup;
        this.capacity = capacity;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        ModelRuntimeFactory factory = setup.factory();
        BatchingConfig batching = setup.batching();
        placement = DevicePlacement.take(factory.options().device(),
                context.getExternalResourceInfos(DevicePlacement.GPU_RESOURCE));
        Device device = placement.device();
        long start = System.nanoTime();
        tokenizer = NonRecoverableLoadException.guard(() -> TextTokenizer.load(factory.card(), factory.options()));
        runtime = NonRecoverableLoadException.guard(() -> factory.open(device));
        LOG.info("ML_PREDICT subtask {} loaded {} on {} in {} ms ({}, capacity {})", subtask,
                runtime.card().id(), runtime.device(), (System.nanoTime() - start) / 1_000_000,
                batching, capacity);
        PredictRecorder.modelReady(System.currentTimeMillis());
        subtaskPrefix = "row-" + subtask + "-";
        worker = new PredictWorker(new BisectingRunner(runtime), batching, setup.columns(), capacity,
                subtask);
    }

    @Override
    public CompletableFuture<Collection<RowData>> asyncPredict(RowData input) {
        CompletableFuture<Collection<RowData>> future = new CompletableFuture<>();
        String text = input.isNullAt(0) ? null : toString(input.getString(0));
        ErrorReason reason = parseProblem(text);
        if (reason != null) {
            return done(future, setup.columns().failure(reason, -1));
        }
        long start = System.nanoTime();
        RowKind.Encoded in = setup.columns().rows().encode(tokenizer, text, setup.overlong());
        if (in.reason() == ErrorReason.TOKENIZER_FAILED) {
            LOG.warn("ML_PREDICT row failed: tokenize/tokenizer_failed: {}", in.detail());
        }
        if (in.failed()) {
            return done(future, setup.columns().failure(in.reason(), in.tokenCount()));
        }
        TokenizedText tokens = in.tokens();
        TokenizedDocument doc = new TokenizedDocument(subtaskPrefix + (sequence++), "sql",
                tokens.ids(), tokens.originalTokenCount(), System.nanoTime() - start);
        try {
            worker.submit(new PredictWorker.Pending(doc, future));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.completeExceptionally(e);
        }
        return future;
    }

    private static String toString(StringData s) {
        return s == null ? null : s.toString();
    }

    /** The DataStream job's parse rules for the text field ({@link Document#problemWith}), as error codes. */
    static ErrorReason parseProblem(String text) {
        return text == null ? ErrorReason.MISSING_TEXT : Document.problemWith(text);
    }

    private static CompletableFuture<Collection<RowData>> done(
            CompletableFuture<Collection<RowData>> future, RowData row) {
        future.complete(List.of(row));
        return future;
    }

    @Override
    public void close() throws Exception {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            if (runtime != null) {
                runtime.close();
            }
            if (tokenizer != null) {
                tokenizer.close();
            }
            if (placement != null) {
                placement.close();
            }
        }
    }
}
