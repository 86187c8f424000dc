package io.github.flinkinfer.jobs.cli;

import io.github.flinkinfer.jobs.moderation.DocVerdictFunction;
import io.github.flinkinfer.jobs.moderation.ModerationTask;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.run.InferenceRun;
import io.github.flinkinfer.jobs.workload.WorkloadDefaults;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code moderate}: classifies a corpus (files or a Kafka topic) with a classification model and
 * writes every verdict to {@code results/} and the items over a threshold to {@code flagged/},
 * with the embedding job's {@code metrics/} and {@code errors/}. Takes every {@code embed}
 * option; the model defaults to the built-in spam filter.
 *
 * <pre>{@code
 * flink run jobs.jar moderate --input s3://mail/ --output s3://verdicts/ --output-format parquet,jsonl
 * }</pre>
 */
@Command(name = "moderate", mixinStandardHelpOptions = true, defaultValueProvider = ModerationJob.Defaults.class,
        customSynopsis = "flink-inference moderate (--input PATH[,PATH...] | --kafka-topic TOPIC ...) --output DIR [OPTIONS]",
        footerHeading = "%nExamples:%n",
        footer = {
            "  moderate --input mail.jsonl --output verdicts --run-id m1",
            "  moderate --input s3://bucket/mail/ --output s3://bucket/verdicts/ \\",
            "           --chunk-size 126 --chunk-verdict WORST --run-id m2",
            "More: docs/moderation.md, docs/errors.md."},
        description = "Classify a corpus with an ONNX classifier (default: the built-in spam filter"
                + " " + ModerationJob.DEFAULT_MODEL + "); write results/, flagged/, metrics and errors.")
public final class ModerationJob implements Callable<Integer> {
    public static final String DEFAULT_MODEL = "spam-assassin-minilm";

    @Mixin RunOptions options = new RunOptions();

    @picocli.CommandLine.Option(names = "--chunk-verdict", defaultValue = "MEAN",
            description = "With --chunk-size, how a document's windows make one verdict: MEAN (the mean"
                    + " of the windows' scores) or WORST (the worst window decides: flagged if any part"
                    + " is; higher recall, lower precision, see docs/moderation.md). Default: ${DEFAULT-VALUE}.")
    DocVerdictFunction.Policy chunkVerdict;

    /** The built-in spam filter as {@code --model}'s default, beneath a workload card's plan. */
    public static final class Defaults extends WorkloadDefaults {
        public Defaults() {
            super(Map.of("--model", DEFAULT_MODEL));
        }
    }

    @Override
    public Integer call() throws Exception {
        RunSummary summary = run(options, chunkVerdict, options.environment());
        if (summary != null) {
            InferenceRun.print(summary, options.output, System.out);
        }
        return 0;
    }

    /** Runs the moderation lifecycle ({@link InferenceRun}); null when submitted detached. */
    public static RunSummary run(RunOptions o, StreamExecutionEnvironment env) throws Exception {
        return run(o, DocVerdictFunction.Policy.MEAN, env);
    }

    /** As above, with the policy that combines a chunked document's windows. */
    public static RunSummary run(RunOptions o, DocVerdictFunction.Policy chunkVerdict,
            StreamExecutionEnvironment env) throws Exception {
        return InferenceRun.execute(new ModerationTask(chunkVerdict), o, env, null);
    }
}
