package io.github.flinkinfer.jobs.spec;

import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.operators.ledger.ErrorBudget;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One run, decided: what the lifecycle ({@code InferenceRun}), the dataflow ({@code
 * InferencePipeline}), the run-info and the verdicts read, built once from the parsed options
 * ({@code RunOptions#spec}) and never changed after. The picocli objects stay with the commands.
 *
 * <pre>{@code
 * RunSpec spec = options.spec("embed", env);
 * InferenceRun.execute(new EmbeddingTask(), spec, env, null);
 * }</pre>
 *
 * @param task the command's name ({@code embed}, {@code moderate})
 * @param runId names the run's files; the option's, else the time the spec was built
 * @param model the model as the user named it (built-in name or card path), for messages
 * @param card the model card it resolves to, for the run's input kind
 * @param runtime the model runtime's settings (device, threads, sessions)
 * @param input what the sources need
 * @param output what the sinks need
 * @param inference what the shared middle of the dataflow needs
 * @param errorBudget when failed inputs fail the run
 * @param execution how the job runs on Flink and what the driver does around it
 * @param quality the quality gate's floors, judged after the job
 * @param workload a workload card's clauses; null without {@code --workload}
 * @param failOnMissedContract a missed deadline or budget fails the run
 * @param pushGateway where the run's numbers are pushed when it ends; null = nowhere
 * @param settings every option's value, secrets redacted, for the run-info
 * @param settingsDefaults the defaults of the options whose value differs from them
 */
public record RunSpec(
        String task,
        String runId,
        String model,
        ModelCard card,
        RuntimeOptions runtime,
        InputConfig input,
        OutputConfig output,
        InferenceConfig inference,
        ErrorBudget errorBudget,
        Execution execution,
        QualityVerdict quality,
        WorkloadContract workload,
        boolean failOnMissedContract,
        URI pushGateway,
        Map<String, Object> settings,
        Map<String, Object> settingsDefaults) {

    public RunSpec {
        settings = frozen(settings);
        settingsDefaults = frozen(settingsDefaults);
    }

    /** An unmodifiable copy whose list and map values (picocli's own collections) are copied too. */
    private static Map<String, Object> frozen(Map<String, Object> options) {
        Map<String, Object> copy = new LinkedHashMap<>();
        options.forEach((name, value) -> copy.put(name,
                value instanceof List<?> list ? Collections.unmodifiableList(new ArrayList<>(list))
                        : value instanceof Map<?, ?> map ? Collections.unmodifiableMap(new LinkedHashMap<>(map))
                        : value));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * Where a run's spec comes from (the parsed options): the lifecycle asks it once, after an
     * embedded cluster has started coming up, so the checks overlap the cluster's start.
     */
    public interface Source {
        /** Slots the run's widest stage takes on {@code env}, to size an early cluster. */
        int slots(StreamExecutionEnvironment env);

        /** The validated, decided spec of a run of {@code command} on {@code env}. */
        RunSpec spec(String command, StreamExecutionEnvironment env) throws IOException;
    }

    /**
     * How the job runs on Flink and what the driver does around it.
     *
     * @param mode BATCH or STREAMING: the option, else the environment's configured mode
     * @param parallelism inference subtasks; 0 = the environment's default
     * @param tokenizeParallelism dedupe + tokenize subtasks in their own task; 0 = chained
     * @param checkpointIntervalMillis checkpoint interval in STREAMING mode
     * @param progressSeconds how often a progress line is printed; 0 = never
     * @param overwrite remove an earlier run's files with the same run id first
     */
    public record Execution(RuntimeExecutionMode mode, int parallelism, int tokenizeParallelism,
            long checkpointIntervalMillis, int progressSeconds, boolean overwrite) {

        /** BATCH unless STREAMING was chosen. */
        public boolean batchMode() {
            return mode != RuntimeExecutionMode.STREAMING;
        }
    }

    /**
     * The quality gate's verdict after the job (the sample itself is {@link InferenceConfig#qualityGate}).
     *
     * @param floor minimum cosine or label agreement of the sample
     * @param meanFloor minimum mean cosine; null = not judged
     * @param reference the reference model's name, for messages
     */
    public record QualityVerdict(double floor, Double meanFloor, String reference) {}
}
