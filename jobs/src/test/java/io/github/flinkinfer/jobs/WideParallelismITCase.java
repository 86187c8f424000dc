package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.FixtureModel;
import io.github.flinkinfer.jobs.testutils.Jobs;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wide runs on the embedded cluster with default settings (issue 38): Flink's 64 MiB of network
 * memory fails at parallelism 16 ("Insufficient number of network buffers"); the cluster sized
 * from the job's exchanges ({@code NetworkMemorySizing}) runs 16 and 32 subtasks. The benchmark
 * fixture model (bench/fixture, a real ONNX graph of negligible cost) keeps 32 sessions cheap.
 */
class WideParallelismITCase {
    @TempDir
    static Path fixture;

    @TempDir
    Path tmp;

    private static Path card;

    @BeforeAll
    static void buildFixtureModel() throws Exception {
        card = FixtureModel.build(fixture);
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 32})
    void aWideRunSucceedsWithDefaultSettings(int parallelism) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(2 * parallelism));
        RunOptions o = Jobs.options("--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--run-id", "p" + parallelism, "--model", card.toString(), "--max-length", "128",
                "--parallelism", String.valueOf(parallelism));

        RunSummary s = EmbeddingJob.run(o, o.environment());

        assertThat(s.succeeded).isEqualTo(2 * parallelism);
        assertThat(s.failed).isZero();
        assertThat(s.clusterStart.taken()).as("the early cluster had the network memory the job needs").isTrue();
    }
}
