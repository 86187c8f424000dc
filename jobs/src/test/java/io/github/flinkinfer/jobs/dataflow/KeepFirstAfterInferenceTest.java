package io.github.flinkinfer.jobs.dataflow;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keep-first's decision relies on BATCH handing it the marks sorted by key; a configuration that
 * turns Flink's sorted inputs off is refused while the job is built, naming the setting.
 */
class KeepFirstAfterInferenceTest {
    @TempDir
    Path tmp;

    @Test
    void refusedWhereFlinkDoesNotSortBatchInputs() throws Exception {
        assertThatThrownBy(() -> build(false, "--duplicates", "keep_first"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("execution.sorted-inputs.enabled");
        assertThatCode(() -> build(false, "--duplicates", "allow")).as("nothing to decide").doesNotThrowAnyException();
        assertThatCode(() -> build(true, "--duplicates", "keep_first")).doesNotThrowAnyException();
    }

    private void build(boolean sortedInputs, String... extra) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(4));
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("--input", input.toString(),
                "--output", tmp.resolve("out").toString(), "--runtime-mode", "BATCH"), java.util.Arrays.stream(extra))
                .toArray(String[]::new);
        RunOptions o = Jobs.options(args);
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.SORT_INPUTS, sortedInputs);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        InferencePipeline.build(env, o.spec("embed", env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                new EmbeddingTask());
    }
}
