package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKinds;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The early embedded cluster's network memory ({@link TaskManagerNetwork#estimatedBytes}, sized
 * before the job graph exists) covers what the embed job's graph needs (keep-first with its id
 * pass, BATCH; also without dedupe, with the dedupe before tokenize, in STREAMING mode, and with
 * tokenize at a parallelism of its own) and the moderate job's, so a run takes the early cluster
 * instead of starting another, and stays within twice the default job's need above the embedded floor (the estimate
 * is allocated as the cluster starts).
 */
class EstimatedExchangesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} P={1} {2}")
    @CsvSource({"embed,1,''", "embed,2,''", "embed,8,''", "embed,16,''", "embed,32,''", "embed,48,''",
            "embed,16,--duplicates allow", "embed,48,--duplicates allow",
            "embed,2,--duplicates keep_first_before_inference", "embed,16,--duplicates keep_first_before_inference",
            "embed,2,--runtime-mode STREAMING", "embed,16,--runtime-mode STREAMING",
            "embed,16,--tokenize-parallelism 12", "embed,32,--tokenize-parallelism 24",
            "embed,48,--tokenize-parallelism 44",
            "moderate,2,''", "moderate,16,''", "moderate,48,''"})
    void theEstimateCoversTheJob(String kind, int parallelism, String extra) throws Exception {
        long need = need(kind, parallelism, extra);
        long estimate = TaskManagerNetwork.embeddedBytes(TaskManagerNetwork.estimatedBytes(new Configuration(),
                parallelism));

        assertThat(need).isLessThanOrEqualTo(estimate);
        if (kind.equals("embed") && extra.isEmpty() && need > TaskManagerNetwork.EMBEDDED_FLOOR_BYTES) {
            assertThat(estimate).as("not far above the default job's need").isLessThan(2 * need);
        }
    }

    private long need(String kind, int parallelism, String extra) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(4));
        List<String> args = new ArrayList<>(List.of("--input", input.toString(), "--output",
                tmp.resolve("out").toString(), "--parallelism", String.valueOf(parallelism)));
        if (kind.equals("moderate")) {
            args.addAll(List.of("--model", ModerationJob.DEFAULT_MODEL));
        }
        args.addAll(List.of((extra.contains("--runtime-mode") ? extra : extra + " --runtime-mode BATCH").trim().split(" ")));
        RunOptions o = Jobs.options(args.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(parallelism);
        env.setRuntimeMode(o.runtimeMode);
        InferencePipeline.build(env, o.spec(kind, env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                TaskKinds.named(kind));
        NetworkMemorySizing sizing = TaskManagerNetwork.embeddedSizing(env.getConfiguration());
        TaskManagerNetwork.Need need = TaskManagerNetwork.of(sizing, env.getStreamGraph(), parallelism);
        return TaskManagerNetwork.embeddedBytes(need.bytesPerTaskManager(parallelism));
    }
}
