package io.github.flinkinfer.jobs.run;

import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.dataflow.TaskKinds;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.report.AccountingException;
import io.github.flinkinfer.jobs.report.DriverWork;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.ledger.ErrorBudgetExceededException;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.onnx.PreparedSessions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.DetachedJobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The one lifecycle of every run, whatever its task: validate → prepare the output (rerun guard)
 * → build → verify model files → execute → clean up → summary and report → verdicts (error budget,
 * quality gate, and with {@code --fail-on-missed-contract} a workload card's deadline and budget) →
 * success marker. It reads one immutable {@link RunSpec}, built once from the parsed options (with
 * {@code --workload} the card and its plan filled them as defaults); on the embedded cluster
 * ({@link EmbeddedEnvironment}) the cluster starts, and the subtasks' sessions and tokenizer
 * parse are prepared ({@code PreparedSessions}, {@code TextTokenizer.prepare}), while the checks
 * and the build run. All of it through Flink's file
 * systems, so a run on a cluster against object storage gets the same report, verdicts and {@code
 * _SUCCESS-<run-id>} as a local one.
 *
 * <pre>{@code
 * RunOptions o = ...; // parsed by picocli
 * StreamExecutionEnvironment env = o.environment();
 * RunSummary s = InferenceRun.execute(new EmbeddingTask(), o, env, null); // o: a RunSpec.Source
 * }</pre>
 */
public final class InferenceRun {
    private InferenceRun() {}

    /**
     * Runs {@code task} with the spec {@code source} builds; on the embedded cluster the cluster
     * starts first and the spec (the option checks) is built while it comes up, and a refused spec
     * shuts it down again. Null when submitted detached.
     */
    public static RunSummary execute(TaskKind<?> task, RunSpec.Source source, StreamExecutionEnvironment env,
            ModelRuntimeFactory model) throws Exception {
        EmbeddedEnvironment embedded = env instanceof EmbeddedEnvironment e ? e : null;
        if (embedded != null) {
            embedded.prestart(source.slots(env));
        }
        RunSpec spec;
        try {
            spec = source.spec(task.name(), env);
        } catch (Exception | Error e) {
            if (embedded != null) {
                embedded.discardUnusedCluster();
            }
            throw e;
        }
        return execute(task, spec, env, model);
    }

    /**
     * Runs {@code task} as {@code spec} says; null when submitted detached. {@code model} supplies
     * the model runtime (tests inject faults through it; null = the card's ONNX model with the
     * spec's runtime settings).
     */
    public static RunSummary execute(TaskKind<?> task, RunSpec spec, StreamExecutionEnvironment env,
            ModelRuntimeFactory model) throws Exception {
        env.setRuntimeMode(spec.execution().mode());
        EmbeddedEnvironment embedded = env instanceof EmbeddedEnvironment e ? e : null;
        int parallelism = spec.execution().parallelism() > 0 ? spec.execution().parallelism() : env.getParallelism();
        if (embedded != null) {
            // comes up while the checks below run, with a slot per subtask of the widest stage
            embedded.prestart(Math.max(parallelism, spec.execution().tokenizeParallelism()));
        }
        PreparedSessions.Batch ahead = null;
        try {
            ModelCard card = checked(task, spec);
            if (embedded != null && model == null) {
                ahead = PreparedSessions.prepare(card, spec.runtime(), parallelism);
            }
            if (embedded != null) {
                TextTokenizer.prepare(card); // the tokenize subtasks' loads share its parse
            }
            return run(task, spec, env, card, model, ahead);
        } finally {
            if (ahead != null) {
                ahead.close();
            }
            if (embedded != null) {
                embedded.discardUnusedCluster();
            }
        }
    }

    /** Checks the spec fits {@code task} and returns the model card it names. */
    private static ModelCard checked(TaskKind<?> task, RunSpec spec) {
        ModelCard card = spec.card();
        if (card.task != task.modelTask()) {
            List<String> fitting = TaskKinds.forModel(card.task).stream().map(TaskKind::name).toList();
            throw new IllegalArgumentException(task.name() + " needs " + article(task.modelTask())
                    + " model; '" + spec.model() + "' is " + article(card.task)
                    + (fitting.isEmpty() ? "" : " (for " + String.join(" or ", fitting) + ")"));
        }
        for (io.github.flinkinfer.jobs.spec.OutputFormat f : spec.output().formats()) {
            if (!f.supports(card.task)) {
                throw new IllegalArgumentException(task.name() + " writes --output-format "
                        + io.github.flinkinfer.jobs.spec.OutputFormat.namesFor(card.task) + ", not " + f);
            }
        }
        task.validate(spec);
        return card;
    }

    /**
     * Prepares the output, builds the job, checks the model files (the sessions {@code ahead}, if
     * any, check theirs meanwhile), runs the job, then summarizes and judges it.
     */
    private static RunSummary run(TaskKind<?> task, RunSpec spec, StreamExecutionEnvironment env,
            ModelCard card, ModelRuntimeFactory model, PreparedSessions.Batch ahead) throws Exception {
        String runId = spec.runId();
        RunOutput out = RunOutput.of(spec.output().directory(), runId);
        boolean committed;
        int removed;
        try {
            refuseToRepublish(spec, out);
            committed = out.committed();
            removed = out.prepare(spec.execution().overwrite());
        } catch (IOException e) { // e.g. a store without credentials: one line, as for an input
            throw new IllegalArgumentException("Output " + spec.output().directory() + " cannot be used: "
                    + io.github.flinkinfer.operators.errors.OneLine.ofStoreFailure(e, spec.output().directory()), e);
        }
        if (removed > 0 && !committed) {
            System.out.println("removed " + removed + " files of an earlier attempt of run '" + runId
                    + "' that never committed (no " + out.successMarker().getName() + ")");
        }

        if (spec.execution().parallelism() > 0) {
            env.setParallelism(spec.execution().parallelism());
        }
        if (!spec.execution().batchMode()) {
            env.enableCheckpointing(spec.execution().checkpointIntervalMillis(), CheckpointingMode.EXACTLY_ONCE);
        }
        InferencePipeline.build(env, spec,
                model != null ? model : ModelRuntimeFactory.onnx(card, spec.runtime()), task);
        verifyModelFiles(card, ahead); // before anything is written or submitted
        if (!(env instanceof EmbeddedEnvironment)) { // the embedded cluster sizes itself
            networkPreflight(env);
        }
        java.util.Map<String, Object> info = RunInfo.of(spec,
                io.github.flinkinfer.jobs.io.CommitReceipts.sinks(env));
        out.write(out.runInfo(), RunInfo.toJson(info));

        JobExecutionResult result = executeWithProgress(env, spec, out,
                task.name() + " " + card.id() + " run " + runId);
        if (result instanceof DetachedJobExecutionResult) {
            System.out.printf("submitted job %s detached; when it ends, `report --output %s --run-id %s`"
                    + " builds the report and judges the run (docs/operations.md)%n",
                    result.getJobID(), spec.output().directory(), runId);
            return null;
        }
        DriverWork afterJob = DriverWork.start();
        out.makeDirectories(io.github.flinkinfer.jobs.io.FileOutputs.METRICS_DIR,
                io.github.flinkinfer.jobs.io.FileOutputs.ERRORS_DIR); // the documented layout, errors or not
        int abandoned = out.removeAbandonedInProgress();
        if (abandoned > 0) {
            System.out.println("removed " + abandoned + " in-progress files left by failed attempts");
        }
        RunSummary written = RunSummary.read(out, clusterStart(env, (long) info.get("submittedAtMillis")));
        io.github.flinkinfer.jobs.report.RunReports.write(written, out);
        RunSummary summary = written.withAfterJob(afterJob.stop());
        RunSpec.QualityVerdict quality = spec.quality();
        io.github.flinkinfer.jobs.push.RunMetrics.judgeAndPush(spec.pushGateway(), summary, () -> {
            judge(summary, quality.floor(), quality.meanFloor(), quality.reference(), out);
            if (spec.failOnMissedContract() && summary.workloadVerdicts != null) {
                io.github.flinkinfer.jobs.report.WorkloadVerdicts.enforce(summary.workloadVerdicts);
            }
            commit(summary, out, result.getJobID().toString(), "driver");
        });
        return summary;
    }

    /** The embedded cluster's start against the run's submission; null on any other environment. */
    private static RunSummary.ClusterStart clusterStart(StreamExecutionEnvironment env, long submittedAtMillis) {
        if (!(env instanceof EmbeddedEnvironment embedded) || embedded.clusterStart() == null) {
            return null;
        }
        EmbeddedEnvironment.ClusterStart c = embedded.clusterStart();
        return new RunSummary.ClusterStart(c.seconds(), (c.readyAtMillis() - submittedAtMillis) / 1000.0, c.taken());
    }

    /**
     * Files can be replaced, records published to a Kafka topic cannot: an {@code --overwrite}
     * re-run of a run that wrote topics would give their consumers every record twice.
     */
    private static void refuseToRepublish(RunSpec spec, RunOutput out) throws IOException {
        if (spec.output().kafka().writesKafka() && !out.files().isEmpty()) {
            throw new IllegalArgumentException("A re-run cannot take back what run '" + out.runId()
                    + "' may already have published to Kafka (--kafka-output-topic/--kafka-errors-topic): a re-run"
                    + " would add every record a second time. Use a new --run-id (records are keyed by"
                    + " id: a compacted topic, or a consumer keeping the latest value per key, sees each"
                    + " id once) or delete the topic's records first (docs/kafka.md, \"Re-runs\")");
        }
    }

    /**
     * Writes the run's manifest as its success marker, last and atomically, once the accounting
     * reconciles; throws {@link AccountingException} (no marker) with the counts that disagree.
     */
    public static void commit(RunSummary summary, RunOutput out, String jobId, String committer)
            throws IOException {
        io.github.flinkinfer.operators.ledger.Reconciliation r = summary.reconciliation;
        if (!r.ok()) {
            throw new AccountingException("Accounting failed for run '" + out.runId() + "': "
                    + String.join("; ", r.mismatches()) + " (" + r.statement() + "). Inputs were lost or"
                    + " counted twice; no " + out.successMarker().getName() + " was written (docs/errors.md,"
                    + " \"Accounting\")");
        }
        out.writeAtomically(out.successMarker(),
                io.github.flinkinfer.jobs.report.RunManifest.json(summary, out, jobId, committer, RunInfo.version()));
    }

    /**
     * The verdicts a finished run must pass before it gets its success marker; throws {@link
     * QualityGateException} otherwise (outputs stay for inspection). Cosine is judged by its
     * minimum (and, with {@code meanFloor}, its mean), label agreement by its share.
     */
    public static void judge(RunSummary summary, double floor, Double meanFloor, String reference, RunOutput out) {
        RunSummary.Quality q = summary.quality;
        if (q.checked == 0) {
            return;
        }
        boolean labels = "label_agreement".equals(q.metric);
        double value = labels ? q.mean : q.min;
        if (value < floor) {
            throw new QualityGateException(String.format(Locale.ROOT,
                    "Quality gate failed: %s %s %.5f (min %.5f, mean %.5f over %d outputs) < --quality-floor %s"
                            + " against %s; see %s", q.metric, labels ? "mean" : "min", value, q.min,
                    q.mean, q.checked, floor, reference, out.report("html")));
        }
        if (!labels && meanFloor != null && q.mean < meanFloor) {
            throw new QualityGateException(String.format(Locale.ROOT,
                    "Quality gate failed: %s mean %.5f (min %.5f over %d outputs) < --quality-mean-floor %s"
                            + " against %s; see %s", q.metric, q.mean, q.min, q.checked, meanFloor, reference,
                    out.report("html")));
        }
    }

    private static JobExecutionResult executeWithProgress(
            StreamExecutionEnvironment env, RunSpec spec, RunOutput out, String jobName) throws Exception {
        ProgressReporter progress = null;
        org.apache.flink.core.execution.JobListener listener = null;
        if (spec.execution().progressSeconds() > 0) {
            progress = new ProgressReporter(expectedRecords(spec), System.out);
            listener = progress.listenTo(env);
            progress.start(spec.execution().progressSeconds());
        }
        JobExecutionResult finished = null;
        try {
            JobExecutionResult result = env.execute(jobName);
            finished = result instanceof DetachedJobExecutionResult ? null : result;
            return result;
        } catch (Exception e) {
            // a subtask's refused model file, device or card, rethrown as the driver's own checks
            // throw it: the CLI prints its message (the file and both hashes) as one error: line
            Optional<RuntimeException> load = NonRecoverableLoadException.originalIn(e);
            if (load.isPresent()) {
                throw load.get();
            }
            ErrorBudgetExceededException budget = findCause(e, ErrorBudgetExceededException.class);
            if (budget == null) {
                throw e;
            }
            // Do not leave a mostly-empty output looking like a result.
            out.discard();
            throw new ErrorBudgetExceededException(budget.getMessage());
        } finally {
            if (progress != null) {
                env.getJobListeners().remove(listener);
                progress.close(finished);
            }
        }
    }

    /** The progress line's total: the Kafka offsets, a workload plan's count, else an estimate. */
    private static long expectedRecords(RunSpec spec) {
        if (spec.input().readsKafka()) {
            return io.github.flinkinfer.jobs.kafka.KafkaPreflight.estimateRecords(spec.input().kafka());
        }
        io.github.flinkinfer.jobs.workload.WorkloadContract contract = spec.workload();
        if (contract != null && contract.forecast() != null && contract.forecast().records() > 0) {
            return contract.forecast().records(); // counted by plan --workload: exact, not estimated
        }
        return ProgressReporter.estimateRecords(spec.input().files());
    }

    /**
     * Refuses to start on a tampered model before the job is submitted (TaskManagers check again).
     * A card in a store ({@code s3://}...) is only resolved here: each TaskManager copies and
     * checks its files, so the client does not download the model. When the driver prepares the
     * sessions itself ({@code ahead}, the embedded cluster), the graph they load is checked there
     * (the original, or its optimized-graph cache entry, which was made from a verified original)
     * and this waits for that check instead of hashing the graph a second time.
     */
    static void verifyModelFiles(ModelCard card, PreparedSessions.Batch ahead) {
        if (card.store != null) {
            return;
        }
        ModelFiles.readVerified(card, card.tokenizer);
        ModelCard session = card.base != null ? card.base : card; // the graph the sessions run
        if (card.base != null) {
            ModelFiles.readVerified(card, card.onnx); // the classifier head
        }
        if (ahead != null) {
            ahead.awaitVerified();
        } else {
            ModelFiles.readVerified(session, session.onnx);
        }
    }

    static <T extends Throwable> T findCause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static String article(io.github.flinkinfer.runtime.card.ModelTask task) {
        String name = task.name().toLowerCase(Locale.ROOT);
        return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    /** Prints the summary and where its report under {@code output} is. */
    public static void print(RunSummary summary, String output, PrintStream console) {
        summary.print(console);
        console.println("  report             " + RunOutput.of(output, summary.runId).report("html"));
    }

    /**
     * The cluster's network memory pre-flight ({@link TaskManagerNetwork#preflight}): its line, or
     * its refusal. A job graph the client cannot build ahead of submission (some sinks' topologies
     * are only settled at submission) skips the advisory line rather than the run.
     */
    private static void networkPreflight(StreamExecutionEnvironment env) {
        String line;
        try {
            line = TaskManagerNetwork.preflight(env.getConfiguration(), env.getStreamGraph(false), env.getParallelism());
        } catch (IllegalArgumentException refused) {
            throw refused;
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(InferenceRun.class)
                    .debug("Network memory pre-flight skipped: the job graph could not be built ahead", e);
            return;
        }
        System.out.println(line);
    }
}
