package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The early embedded cluster's network memory ({@link TaskManagerNetwork#ESTIMATED_EXCHANGES},
 * sized before the job graph exists) covers what the default embed job's graph needs (keep-first
 * with its id pass, BATCH), so a wide run takes the early cluster instead of starting another.
 */
class EstimatedExchangesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(ints = {2, 16, 32})
    void theEstimateCoversTheDefaultEmbedJob(int parallelism) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(4));
        RunOptions o = Jobs.options("--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--parallelism", String.valueOf(parallelism), "--runtime-mode", "BATCH");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(parallelism);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        InferencePipeline.build(env, o.spec("embed", env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                new EmbeddingTask());
        NetworkMemorySizing sizing = TaskManagerNetwork.embeddedSizing(env.getConfiguration());
        TaskManagerNetwork.Need need = TaskManagerNetwork.of(sizing, env.getStreamGraph(), parallelism);
        long estimate = sizing.bytesForAllToAll(TaskManagerNetwork.ESTIMATED_EXCHANGES, parallelism);
        assertThat(NetworkMemorySizing.roundedUp(need.bytesPerTaskManager(parallelism)))
                .isLessThanOrEqualTo(NetworkMemorySizing.roundedUp(estimate));
    }
}
