package io.github.flinkinfer.jobs.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Application mode on the multi-process standalone cluster ({@code start-cluster.sh
 * --application}): the JobManager runs the job's main() itself, so the run's verdicts need no
 * client. A quality floor the run cannot meet fails the application and leaves no success
 * marker; the report and outputs stay.
 */
class StandaloneApplicationITCase {
    @TempDir Path tmp;

    @Test
    void aFailedQualityGateFailsTheApplicationWithoutSuccessMarker() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), Corpus.sample(120));
        Path out = tmp.resolve("out");
        String log;
        try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), "-n", "1", "-s", "2",
                "--application", StandaloneCluster.jobJar().toString(), "--",
                "embed", "--input", input.toString(), "--output", out.toString(), "--run-id", "app",
                "--parallelism", "2", "--model", "all-minilm-l6-v2-q", "--progress-seconds", "0",
                "--quality-sample", "10", "--quality-floor", "1.5")) {
            assertThat(cluster.awaitExit("jobmanager", Duration.ofMinutes(3)))
                    .as("the application cluster should stop when its job's main() ends\n%s", cluster.logTails())
                    .isTrue();
            Path jobManager = cluster.log("jobmanager");
            log = Files.readString(jobManager);
            assertThat(Files.readString(jobManager.resolveSibling("jobmanager.out"))).as(cluster.logTails())
                    .contains("error: Quality gate failed: cosine min");
        }
        assertThat(log).contains("switched from state FAILING to FAILED")
                .contains("with application status FAILED")
                .contains("exit code 1443");
        assertThat(out.resolve("_SUCCESS-app")).doesNotExist();
        assertThat(out.resolve("report-app.json")).exists();
        assertThat(Files.list(out.resolve("embeddings")).filter(p -> p.getFileName().toString().startsWith("part-app-")))
                .as("outputs stay for inspection").isNotEmpty();
    }
}
