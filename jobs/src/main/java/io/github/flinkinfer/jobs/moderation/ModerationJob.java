package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.jobs.EmbedOptions;
import io.github.flinkinfer.jobs.EmbeddingJob;
import io.github.flinkinfer.jobs.RunSummary;
import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelFiles;
import io.github.flinkinfer.runtime.Task;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
@Command(name = "moderate", mixinStandardHelpOptions = true,
        description = "Classify a corpus with an ONNX classifier (default: the built-in spam filter"
                + " " + ModerationJob.DEFAULT_MODEL + "); write results/, flagged/, metrics and errors.")
public final class ModerationJob implements Callable<Integer> {
    public static final String DEFAULT_MODEL = "spam-assassin-minilm";

    @Mixin EmbedOptions options = new EmbedOptions();

    @picocli.CommandLine.Option(names = "--chunk-verdict", defaultValue = "MEAN",
            description = "With --chunk-size, how a document's windows make one verdict: MEAN (the mean"
                    + " of the windows' scores) or WORST (the worst window decides: flagged if any part"
                    + " is; higher recall, lower precision, see docs/moderation.md). Default: ${DEFAULT-VALUE}.")
    DocVerdictFunction.Policy chunkVerdict;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!spec.commandLine().getParseResult().hasMatchedOption("--model")) {
            options.model = DEFAULT_MODEL;
        }
        RunSummary summary = run(options, chunkVerdict,
                StreamExecutionEnvironment.getExecutionEnvironment(EmbeddingJob.configuration(options)));
        if (summary != null) {
            summary.print(System.out);
        }
        return 0;
    }

    /** Validates, verifies every model file, runs the job and summarizes it (null for remote output). */
    public static RunSummary run(EmbedOptions o, StreamExecutionEnvironment env) throws Exception {
        return run(o, DocVerdictFunction.Policy.MEAN, env);
    }

    /** As above, with the policy that combines a chunked document's windows. */
    public static RunSummary run(EmbedOptions o, DocVerdictFunction.Policy chunkVerdict,
            StreamExecutionEnvironment env) throws Exception {
        o.validate();
        ModelCard card = o.modelCard();
        if (card.task != Task.CLASSIFICATION) {
            throw new IllegalArgumentException("moderate needs a classification model; '" + o.model
                    + "' is " + card.task + " (try --model " + DEFAULT_MODEL + ")");
        }
        if (o.index.incremental() || o.index.chunking().pooling() != Chunking.Pooling.NONE) {
            throw new IllegalArgumentException("--previous-output and --doc-pooling are embedding-job"
                    + " options; moderate judges a chunked document by its worst window");
        }
        for (String f : o.outputFormats) {
            if (!f.equals("parquet") && !f.equals("jsonl")) {
                throw new IllegalArgumentException("moderate writes parquet and/or jsonl, not " + f);
            }
        }
        ModelFiles.readVerified(card, card.onnx);
        ModelFiles.readVerified(card, card.tokenizer);
        if (card.base != null) {
            ModelFiles.readVerified(card.base, card.base.onnx);
        }
        String runId = o.runId != null ? o.runId
                : LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        if (!runId.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--run-id may use letters, digits, '.', '_' and '-'");
        }
        boolean localOutput = !o.output.contains("://") || o.output.startsWith("file://");
        Path out = Path.of(o.output.replaceFirst("^file://", ""));
        if (localOutput) {
            refuseOrRemoveEarlierRun(out, runId, o.overwrite);
        }
        if (o.parallelism > 0) {
            env.setParallelism(o.parallelism);
        }
        if (!o.isBatchMode()) {
            env.enableCheckpointing(o.checkpointIntervalMillis, CheckpointingMode.EXACTLY_ONCE);
        }
        ModerationPipeline.build(env, o, runId, ModelRuntimeFactory.onnx(card, o.runtimeOptions()), chunkVerdict);
        long start = System.nanoTime();
        JobExecutionResult result = env.execute("moderate " + card.id() + " run " + runId);
        if (!localOutput) {
            return null;
        }
        RunSummary summary = RunSummary.read(out, runId, (System.nanoTime() - start) / 1e9);
        if (o.index.chunking().enabled()) { // items above are windows; say how many documents
            Object docs = result.getAccumulatorResult(DocVerdictFunction.DOCUMENTS);
            summary.documents = docs instanceof Number n ? n.longValue() : 0L;
        }
        summary.write(out);
        Files.writeString(out.resolve("_SUCCESS-" + runId), result.getJobID().toString() + "\n");
        return summary;
    }

    /** Outputs are named after the run id: a re-run must not add to an earlier run's files. */
    static void refuseOrRemoveEarlierRun(Path dir, String runId, boolean overwrite) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> earlier;
        try (Stream<Path> all = Files.walk(dir, 2)) {
            earlier = all.filter(Files::isRegularFile)
                    .filter(p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith("part-" + runId + "-") || n.startsWith(".part-" + runId + "-")
                                || n.equals("_SUCCESS-" + runId) || n.startsWith("report-" + runId + ".");
                    })
                    .toList();
        }
        if (!earlier.isEmpty() && !overwrite) {
            throw new IllegalArgumentException("Output " + dir + " already holds " + earlier.size()
                    + " files of run '" + runId + "'; pass --overwrite or use another --run-id");
        }
        for (Path p : earlier) {
            try {
                Files.delete(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
