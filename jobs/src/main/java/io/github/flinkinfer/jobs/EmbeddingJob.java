package io.github.flinkinfer.jobs;

import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code embed}: embeds a corpus and writes embeddings, per-batch metrics and errors. Runs on the
 * embedded Flink cluster when started with {@code java}, or on a cluster with {@code flink run}.
 *
 * <pre>{@code
 * flink run jobs.jar embed --input s3://corpus/ --output s3://out/ --run-id r1
 * }</pre>
 */
@Command(name = "embed", mixinStandardHelpOptions = true,
        description = "Embed a text corpus with an ONNX model; write embeddings, metrics and errors.")
public final class EmbeddingJob implements Callable<Integer> {

    @Mixin EmbedOptions options = new EmbedOptions();

    @Override
    public Integer call() throws Exception {
        RunSummary summary = run(options, FlinkDefaults.environment(options));
        if (summary != null) {
            summary.print(System.out);
        }
        return 0;
    }

    /** Runs the embedding lifecycle ({@link InferenceRun}); null when submitted detached. */
    public static RunSummary run(EmbedOptions o, StreamExecutionEnvironment env) throws Exception {
        return InferenceRun.execute(new EmbeddingTask(), o, env);
    }
}
