package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The early embedded cluster's network memory ({@link TaskManagerNetwork#estimatedBytes}, sized
 * before the job graph exists) covers what the embed job's graph needs (keep-first with its id
 * pass, BATCH; also without dedupe and with tokenize at a parallelism of its own), so a wide run
 * takes the early cluster instead of starting another, and stays within twice the default job's
 * need where that is above Flink's 64 MiB (the estimate is allocated as the cluster starts).
 */
class EstimatedExchangesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "P={0} {1}")
    @CsvSource({"2,''", "8,''", "16,''", "32,''", "48,''",
            "16,--duplicates allow", "48,--duplicates allow",
            "16,--tokenize-parallelism 12", "32,--tokenize-parallelism 24", "48,--tokenize-parallelism 44"})
    void theEstimateCoversTheEmbedJob(int parallelism, String extra) throws Exception {
        long need = need(parallelism, extra);
        long estimate = NetworkMemorySizing.roundedUp(
                TaskManagerNetwork.estimatedBytes(new Configuration(), parallelism));

        assertThat(need).isLessThanOrEqualTo(estimate);
        if (extra.isEmpty() && need > NetworkMemorySizing.FLINK_DEFAULT_BYTES) {
            assertThat(estimate).as("not far above the default job's need").isLessThan(2 * need);
        }
    }

    private long need(int parallelism, String extra) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(4));
        List<String> args = new ArrayList<>(List.of("--input", input.toString(), "--output",
                tmp.resolve("out").toString(), "--parallelism", String.valueOf(parallelism), "--runtime-mode", "BATCH"));
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" ")));
        }
        RunOptions o = Jobs.options(args.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(parallelism);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        InferencePipeline.build(env, o.spec("embed", env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                new EmbeddingTask());
        NetworkMemorySizing sizing = TaskManagerNetwork.embeddedSizing(env.getConfiguration());
        TaskManagerNetwork.Need need = TaskManagerNetwork.of(sizing, env.getStreamGraph(), parallelism);
        return NetworkMemorySizing.roundedUp(need.bytesPerTaskManager(parallelism));
    }
}
