package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.S3Server;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/operations.md's S3 recipe for the embedded cluster, followed as written: a
 * {@code config.yaml} with the S3 keys in {@code $FLINK_CONF_DIR}, the plugin where the launcher
 * looks by default, {@code bin/flink-inference} in its own process reading and writing
 * {@code s3://} of a real S3 endpoint; every id once.
 */
class S3LauncherITCase {
    @RegisterExtension static final S3Server S3 = S3Server.serverOnly();
    private static final Map<String, String> CORPUS = Corpus.sample(40);

    @TempDir Path tmp;

    @Test
    void embedsFromS3ToS3WithTheDocumentedSettings() throws Exception {
        S3.put("recipe/corpus.jsonl", Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), CORPUS));
        S3.putDirectoryMarker("recipe/out"); // as a mkdir by S3A or another tool leaves it
        Path conf = Files.createDirectory(tmp.resolve("conf"));
        Files.writeString(conf.resolve("config.yaml"), S3.configuration().toMap().entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).sorted().collect(Collectors.joining("\n", "", "\n")));

        Launcher.Result r = Launcher.run(tmp, Map.of("FLINK_CONF_DIR", conf.toString(),
                        // a fresh graph cache: the session that saves an optimized graph is the one
                        // ONNX Runtime warns about
                        "FLINK_INFERENCE_OPTS", "-D" + OptimizedGraphCache.PROPERTY + "=" + tmp.resolve("graphs")),
                "embed", "--input", S3.uri("recipe/corpus.jsonl"), "--output", S3.uri("recipe/out"),
                "--run-id", "r1", "--parallelism", "2", "--progress-seconds", "0");

        assertThat(r.exitCode()).as("stdout:%n%s%nstderr:%n%s", r.stdout(), r.stderr()).isZero();
        assertThat(r.stdout() + r.stderr()).as("issue 40: a quiet console without --verbose")
                .doesNotContain("AWS SDK for Java 1.x", "[W:onnxruntime", "\tat ", "WARN");
        assertThat(tmp.resolve("graphs")).as("the graph was optimized and saved in this run").isNotEmptyDirectory();
        assertThat(S3.directoryMarkers("recipe/out")).as("issue 40: S3A keeps directory markers by default"
                + " (s3.directory.marker.retention: keep): no bulk delete of the parents' markers after every object")
                .contains("recipe/out/");
        assertThat(S3.keys("recipe/out/")).contains("recipe/out/_SUCCESS-r1", "recipe/out/report-r1.json");
        Path out = S3.copyTo("recipe/out/", tmp.resolve("out"));
        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());

        // issue 22: `report` on s3:// initializes file systems as a run does, and tells the same
        // truth as the driver (both from the job's ledger)
        Launcher.Result report = Launcher.run(tmp, Map.of("FLINK_CONF_DIR", conf.toString()),
                "report", "--output", S3.uri("recipe/out"), "--run-id", "r1");
        assertThat(report.exitCode()).as("stdout:%n%s%nstderr:%n%s", report.stdout(), report.stderr()).isZero();
        assertThat(report.stdout()).contains("read 40 = succeeded 40 + failed 0 + skipped 0 + duplicates 0");
        String driverWall = wall(r.stdout());
        assertThat(wall(report.stdout())).as("one wall, whoever reads the run").isEqualTo(driverWall);
    }

    /** The summary's wall time, e.g. {@code 12.3} of "... over 12.3 s wall". */
    private static String wall(String console) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("over ([0-9.]+) s wall").matcher(console);
        assertThat(m.find()).as("a summary in:%n%s", console).isTrue();
        return m.group(1);
    }
}
