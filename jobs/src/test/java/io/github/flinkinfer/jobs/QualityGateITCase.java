package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The quality gate re-runs a sample of outputs alone through the fp32 reference: fp32 in batches
 * does not move (batching is exact), int8's batch-dependent activations do, and a floor above
 * int8's drift fails the run without a success marker.
 */
class QualityGateITCase extends ClusterTestBase {

    @Test
    void fp32BatchesMatchTheirReferenceExactly() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), Corpus.sample(200));
        RunSummary s = MiniClusters.embed(Jobs.options("--input", input.toString(),
                "--output", tmp.resolve("fp32").toString(), "--run-id", "q", "--parallelism", "2",
                "--quality-sample", "40", "--quality-floor", "0.9999"));
        assertThat(s.quality.checked).isEqualTo(40);
        assertThat(s.quality.metric).isEqualTo("cosine");
        assertThat(s.quality.min).isGreaterThanOrEqualTo(0.9999);
        assertThat(tmp.resolve("fp32/_SUCCESS-q")).exists();
    }

    @Test
    void int8DriftIsMeasuredAndAFloorAboveItFailsTheRun() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), Corpus.sample(200));
        Path out = tmp.resolve("int8");
        assertThatThrownBy(() -> MiniClusters.embed(Jobs.options("--input", input.toString(),
                        "--output", out.toString(), "--run-id", "q8", "--parallelism", "2",
                        "--model", "all-minilm-l6-v2-q", "--quality-sample", "40",
                        "--quality-floor", "0.9999")))
                .isInstanceOf(QualityGateException.class)
                .hasMessageContaining("cosine min 0.9")
                .hasMessageContaining("over 40 outputs");
        assertThat(out.resolve("_SUCCESS-q8")).doesNotExist();
        assertThat(Files.readString(out.resolve("report-q8.json"))).contains("\"checked\" : 40");
    }
}
