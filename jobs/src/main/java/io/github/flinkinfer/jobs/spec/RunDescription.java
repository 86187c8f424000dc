package io.github.flinkinfer.jobs.spec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.RuntimeExecutionMode;

/**
 * What a run was decided to be, as data: the part of its {@link RunSpec} that the report, the
 * verdicts and the pushed metrics read after the job. Written once into the run's {@code
 * run-info-<run-id>.json} as {@code "spec"} and read back from it ({@link #read}), so nothing
 * after the job parses command-line flags; the flag map ({@code "settings"}) stays for people.
 *
 * <pre>{@code
 * info.put("spec", RunDescription.of(spec));        // when the run starts
 * RunDescription run = RunDescription.read(runInfo); // report, verdicts, push
 * }</pre>
 *
 * @param task the command ({@code embed}, {@code moderate}); null for a run of an older version
 * @param model the model as named and as resolved
 * @param execution how the job ran on Flink
 * @param inference the shared middle of the dataflow
 * @param outputFormats the result formats written
 * @param quality the quality gate: its sample and the floors judged after the job
 * @param failOnMissedContract a missed workload deadline or budget fails the run
 */
public record RunDescription(
        String task,
        Model model,
        Execution execution,
        Inference inference,
        List<OutputFormat> outputFormats,
        Quality quality,
        boolean failOnMissedContract) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public RunDescription {
        outputFormats = outputFormats == null ? List.of() : List.copyOf(outputFormats);
    }

    /**
     * The model.
     *
     * @param name as the user named it (built-in name or card path)
     * @param id the card's id
     * @param task what it computes
     * @param maxLength the longest input in tokens the run used (the model's, capped by the option)
     */
    public record Model(String name, String id, ModelTask task, int maxLength) {}

    /**
     * How the job ran.
     *
     * @param mode BATCH or STREAMING
     * @param parallelism inference subtasks; 0 = the environment's default
     * @param tokenizeParallelism dedupe + tokenize subtasks in their own task; 0 = chained
     */
    public record Execution(RuntimeExecutionMode mode, int parallelism, int tokenizeParallelism) {}

    /**
     * The shared middle of the dataflow.
     *
     * @param duplicates what happened to a second record with an id already seen
     * @param overlong inputs longer than the max length: truncated or errors
     * @param chunkSize token windows per document; 0 = not chunked
     * @param chunkOverlap tokens shared by adjacent windows
     * @param pooling how window outputs became a document's
     * @param bucketEdges the batcher's length buckets
     * @param maxBatchTokens the batcher's padded-token budget
     * @param maxBatchSize the batcher's row limit
     * @param incremental whether an earlier run's unchanged rows were reused
     */
    public record Inference(DuplicatePolicy duplicates, OverlongPolicy overlong, int chunkSize, int chunkOverlap,
            Chunking.Pooling pooling, List<Integer> bucketEdges, int maxBatchTokens, int maxBatchSize,
            boolean incremental) {

        public Inference {
            bucketEdges = bucketEdges == null ? List.of() : List.copyOf(bucketEdges);
        }

        /** True when documents were split into token windows (the counted items are windows). */
        public boolean chunked() {
            return chunkSize > 0;
        }
    }

    /**
     * The quality gate.
     *
     * @param sample outputs re-run through the reference; 0 = off
     * @param floor minimum cosine or label agreement of the sample
     * @param meanFloor minimum mean cosine; null = not judged
     * @param reference the reference model's name, for messages
     */
    public record Quality(int sample, double floor, Double meanFloor, String reference) {}

    /** The description of {@code spec}. */
    public static RunDescription of(RunSpec spec) {
        InferenceConfig in = spec.inference();
        Chunking chunking = in.chunking() == null ? Chunking.OFF : in.chunking();
        BatchingConfig b = in.batching();
        return new RunDescription(spec.task(),
                new Model(spec.model(), spec.card().id(), spec.card().task,
                        spec.runtime().effectiveMaxLength(spec.card())),
                new Execution(spec.execution().mode(), spec.execution().parallelism(),
                        spec.execution().tokenizeParallelism()),
                new Inference(in.duplicates(), in.overlong(), chunking.size(), chunking.overlap(), chunking.pooling(),
                        Arrays.stream(b.bucketEdges()).boxed().toList(), b.maxBatchTokens(), b.maxBatchSize(),
                        in.incremental()),
                spec.output().formats(),
                new Quality(in.qualityGate() == null ? 0 : in.qualityGate().samples(), spec.quality().floor(),
                        spec.quality().meanFloor(), spec.quality().reference()),
                spec.failOnMissedContract());
    }

    /** True for a classifier whose documents were split into windows: its items are windows. */
    public boolean chunkedClassification() {
        return model != null && model.task() == ModelTask.CLASSIFICATION && inference != null && inference.chunked();
    }

    /** Dedupe + tokenize subtasks in their own task; 0 = chained (also when unknown). */
    public int tokenizeParallelism() {
        return execution == null ? 0 : execution.tokenizeParallelism();
    }

    /**
     * The description a run-info holds under {@code "spec"}; null without a run-info. A run-info
     * written before {@code "spec"} existed is read from its {@code "settings"} flag map: the one
     * place that still reads flag strings, for those older runs only ({@link #fromOlderSettings}).
     */
    public static RunDescription read(JsonNode runInfo) {
        if (runInfo == null) {
            return null;
        }
        JsonNode spec = runInfo.get("spec");
        if (spec == null || !spec.isObject()) {
            return fromOlderSettings(runInfo);
        }
        try {
            return JSON.treeToValue(spec, RunDescription.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("The run-info's \"spec\" cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Runs of versions before the spec was persisted wrote only the flag map: what the readers
     * after the job need is taken from it (and the model section); the rest stays unknown (null, 0).
     */
    private static RunDescription fromOlderSettings(JsonNode info) {
        JsonNode s = info.path("settings");
        JsonNode m = info.path("model");
        ModelTask task = m.hasNonNull("task") ? ModelTask.valueOf(m.get("task").asText().toUpperCase(Locale.ROOT)) : null;
        JsonNode meanFloor = s.path("--quality-mean-floor");
        String mode = s.path("--runtime-mode").asText("");
        return new RunDescription(null,
                new Model(s.path("--model").asText(null), m.path("id").asText(null), task,
                        m.path("maxSequenceLength").asInt(0)),
                new Execution(mode.isEmpty() || mode.equals("null") ? null : RuntimeExecutionMode.valueOf(mode),
                        s.path("--parallelism").asInt(0), s.path("--tokenize-parallelism").asInt(0)),
                new Inference(null, null, s.path("--chunk-size").asInt(0), s.path("--chunk-overlap").asInt(0),
                        null, List.of(), s.path("--max-batch-tokens").asInt(0), s.path("--max-batch-size").asInt(0),
                        s.hasNonNull("--previous-output")),
                List.of(),
                new Quality(s.path("--quality-sample").asInt(0), s.path("--quality-floor").asDouble(0),
                        meanFloor.isNumber() ? meanFloor.asDouble() : null,
                        s.path("--quality-reference").asText("the run's fp32 model")),
                s.path("--fail-on-missed-contract").asBoolean(false));
    }
}
