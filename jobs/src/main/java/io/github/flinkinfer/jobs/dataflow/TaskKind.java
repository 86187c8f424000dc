package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.kinds.RowKind;
import io.github.flinkinfer.operators.kinds.RowKinds;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.operators.tokenize.TokenizeFunction;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.ProcessFunction;

/**
 * One kind of run (embedding, classification, the next one) and everything that is its own, as
 * Beam's {@code ModelHandler} or DJL's {@code Translator}: the model task it needs and its option
 * checks, its pre-process (model inputs from a document), its batching policy, its post-process
 * (the model's raw rows into its result type {@code R}) and the writers of that result. The
 * dataflow every run shares ({@link InferencePipeline}: read → pre-process → batch + run →
 * post-process → write, with errors, metrics and the ledger) and the lifecycle every run shares
 * ({@code run.InferenceRun}) call these and know no kind. A kind is found by name in {@link
 * TaskKinds}; adding one is this interface implemented once plus one line in {@code
 * META-INF/services/io.github.flinkinfer.jobs.dataflow.TaskKind} (docs/architecture.md).
 *
 * <pre>{@code
 * RunSummary s = InferenceRun.execute(TaskKinds.named("embed"), spec, env, null);
 * }</pre>
 *
 * @param <R> the result row this kind writes
 */
public interface TaskKind<R> {
    /** The kind's name, also the command's, the job's and the spec's ({@code embed}, {@code moderate}). */
    String name();

    /** The kind of model it runs. */
    ModelTask modelTask();

    /**
     * Its per-row half, shared with SQL's {@code ML_PREDICT}: how one text becomes the model's
     * input and what one output row holds. By default the one registered for {@link #modelTask()}
     * ({@link RowKinds}); a kind with its own per-row rules returns its own.
     */
    default RowKind rows() {
        return RowKinds.of(modelTask());
    }

    /** Checks its own option combinations; throws IllegalArgumentException. */
    default void validate(RunSpec spec) {}

    /**
     * Pre-process: one document into its model inputs (one, or one per token window with
     * chunking), failures to {@link Outputs#ERRORS}. By default the card's tokenizer, one text
     * at a time by {@link #rows()}' rule (the card's input prefix, {@code --input-kind}, and the
     * run's over-long policy), or cut into windows with the run's chunking.
     */
    default ProcessFunction<Document, TokenizedDocument> preProcess(ModelRuntimeFactory model,
            InferenceConfig config) {
        return new TokenizeFunction(rows(), model.card(), model.options(), config.overlong(),
                config.chunking());
    }

    /** How model inputs are batched; by default the run's shared policy ({@code --max-batch-tokens} ...). */
    default BatchingConfig batching(InferenceConfig config) {
        return config.batching();
    }

    /**
     * Post-process: {@code inferred}'s rows (one per successful model input, plus those an
     * incremental run carried over) into this kind's results. A step that adds or drops rows
     * tallies them in {@link InferencePipeline.Inferred#ledger()}, so the ledger reconciles.
     */
    DataStream<R> postProcess(InferencePipeline.Inferred inferred, InferenceConfig config, ModelCard card);

    /**
     * Writes the results to the kind's outputs, in its schema. A kind that writes every
     * post-processed row tallies them in {@code ledger} ({@code written}), so the ledger proves
     * none was lost on the way.
     */
    void write(DataStream<R> results, OutputConfig out, Accounting ledger);
}
