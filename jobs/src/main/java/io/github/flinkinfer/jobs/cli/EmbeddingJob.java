package io.github.flinkinfer.jobs.cli;

import io.github.flinkinfer.jobs.dataflow.TaskKinds;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.run.InferenceRun;
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
        customSynopsis = "flink-inference embed (--input PATH[,PATH...] | --kafka-topic TOPIC ...) --output DIR [OPTIONS]",
        description = "Embed a text corpus with an ONNX model; write embeddings, metrics and errors.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  embed --input corpus.jsonl --output out --run-id r1",
            "  embed --input s3://bucket/corpus/ --output s3://bucket/out/ \\",
            "        --run-id 2026-11-30 --model bge-small-en-v1.5 \\",
            "        --output-format parquet,opensearch-bulk",
            "  embed --input corpus.csv --text-field body --model all-minilm-l6-v2-q \\",
            "        --quality-sample 200 --quality-floor 0.97 --output out --run-id int8",
            "  embed --kafka-bootstrap-servers broker:9092 --kafka-topic docs \\",
            "        --kafka-output-topic vectors --output s3://bucket/runs/ \\",
            "        --run-id backfill-1",
            "More: docs/operations.md (clusters, S3, config), docs/errors.md, docs/kafka.md."})
public final class EmbeddingJob implements Callable<Integer> {

    @Mixin RunOptions options = new RunOptions();

    @Override
    public Integer call() throws Exception {
        RunSummary summary = run(options, options.environment());
        if (summary != null) {
            InferenceRun.print(summary, options.output, System.out);
        }
        return 0;
    }

    /**
     * Runs the embedding lifecycle ({@link InferenceRun}) on the spec of {@code o}; null when
     * submitted detached.
     */
    public static RunSummary run(RunOptions o, StreamExecutionEnvironment env) throws Exception {
        return InferenceRun.execute(TaskKinds.named("embed"), o, env, null);
    }
}
