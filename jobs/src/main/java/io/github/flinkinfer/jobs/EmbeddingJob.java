package io.github.flinkinfer.jobs;

import io.github.flinkinfer.jobs.RunSummary;
import io.github.flinkinfer.operators.ErrorBudgetExceededException;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code embed}: embeds a corpus and writes embeddings, per-batch metrics and errors. Runs on the
 * embedded Flink cluster when started with {@code java}, or on a cluster with {@code flink run}.
 *
 * <pre>{@code
 * flink run -Dexecution.runtime-mode=BATCH jobs.jar embed --input s3://corpus/ --output s3://out/
 * }</pre>
 */
@Command(name = "embed", mixinStandardHelpOptions = true,
        description = "Embed a text corpus with an ONNX model; write embeddings, metrics and errors.")
public final class EmbeddingJob implements Callable<Integer> {

    @Mixin EmbedOptions options = new EmbedOptions();

    @Override
    public Integer call() throws Exception {
        RunSummary summary = run(options, StreamExecutionEnvironment.getExecutionEnvironment(configuration(options)));
        if (summary != null) {
            summary.print(System.out);
        }
        return 0;
    }

    static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /** Flink settings the job needs whatever the cluster defaults are. */
    public static Configuration configuration(EmbedOptions o) {
        Configuration conf = new Configuration();
        boolean batch = o.runtimeMode.equalsIgnoreCase("BATCH");
        conf.set(ExecutionOptions.RUNTIME_MODE,
                batch ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING);
        // Without checkpointing, Flink's default is no restarts at all: make it explicit.
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, o.restartAttempts);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        // One model session per inference slot is a sizing decision, not something to infer
        // from bytes read: keep the adaptive batch scheduler from shrinking the parallelism.
        conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        // Every record type is a POJO or Avro: fail fast if anything would fall back to Kryo.
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        return conf;
    }

    /**
     * Validates, verifies the model files, runs the job and summarizes it. Returns null when the
     * output is not on the local file system (the summary is then built by the report command).
     */
    public static RunSummary run(EmbedOptions o, StreamExecutionEnvironment env) throws Exception {
        o.validate();
        ModelCard card = o.modelCard();
        // Refuse to start on a tampered model before any cluster work (TaskManagers check again).
        ModelFiles.readVerified(card, card.onnx);
        ModelFiles.readVerified(card, card.tokenizer);
        String runId = o.runId != null ? o.runId
                : LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        if (!runId.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--run-id may use letters, digits, '.', '_' and '-'");
        }
        OutputDirectory.prepare(o.output, runId, o.overwrite);
        if (o.parallelism > 0) {
            env.setParallelism(o.parallelism);
        }
        if (o.runtimeMode.equalsIgnoreCase("STREAMING")) {
            env.enableCheckpointing(o.checkpointIntervalMillis, CheckpointingMode.EXACTLY_ONCE);
        }
        EmbeddingPipeline.build(env, o, runId);
        boolean localOutput = !o.output.contains("://") || o.output.startsWith("file://");
        if (localOutput) {
            RunInfo.write(Path.of(o.output).resolve("run-info-" + runId + ".json"), RunInfo.of(o, card, runId));
        }
        ProgressReporter progress = null;
        if (localOutput && o.progressSeconds > 0 && !o.inputs.isEmpty()) {
            progress = new ProgressReporter(Path.of(o.output).resolve(io.github.flinkinfer.jobs.io.FileOutputs.METRICS_DIR),
                    ProgressReporter.estimateRecords(o.inputs), System.out);
            progress.start(o.progressSeconds);
        }
        long start = System.nanoTime();
        JobExecutionResult result;
        try {
            result = env.execute("embed " + card.id() + " run " + runId);
        } catch (Exception e) {
            ErrorBudgetExceededException budget = findCause(e, ErrorBudgetExceededException.class);
            if (budget == null) {
                throw e;
            }
            // Do not leave a mostly-empty output looking like a result.
            OutputDirectory.discard(o.output, runId);
            throw new ErrorBudgetExceededException(budget.getMessage());
        } finally {
            if (progress != null) {
                progress.close();
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        int abandoned = OutputDirectory.removeAbandonedInProgress(o.output, runId);
        if (abandoned > 0) {
            System.out.println("removed " + abandoned + " in-progress files left by failed attempts");
        }
        Path out = Path.of(o.output);
        if (o.output.contains("://") && !o.output.startsWith("file://")) {
            return null;
        }
        RunSummary summary = RunSummary.read(out, runId, wall);
        summary.write(out);
        if (summary.quality.checked > 0 && summary.quality.min < o.quality.floor) {
            // Outputs stay for inspection, but without the success marker the run did not pass.
            throw new QualityGateException(String.format(java.util.Locale.ROOT,
                    "Quality gate failed: %s min %.5f (mean %.5f over %d outputs) < --quality-floor %s"
                            + " against %s; see report-%s.html", summary.quality.metric,
                    summary.quality.min, summary.quality.mean, summary.quality.checked,
                    o.quality.floor, o.quality.reference, runId));
        }
        Files.writeString(out.resolve("_SUCCESS-" + runId), result.getJobID().toString() + "\n");
        return summary;
    }
}
