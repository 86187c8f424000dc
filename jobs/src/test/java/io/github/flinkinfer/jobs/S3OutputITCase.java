package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.ReportCommand;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs on object storage as users do: the corpus is read from {@code s3://} and every output
 * written to {@code s3://} of a real S3 endpoint (S3Proxy) through Flink's own S3 file system,
 * on 2 TaskManagers. The bucket then holds every id exactly once, and the run's lifecycle (summary,
 * report, success marker, rerun guard, quality gate) works there as on a local disk.
 */
class S3OutputITCase extends ClusterTestBase {
    @RegisterExtension static final S3Server S3 = new S3Server();

    /** A few hundred sample records and one malformed line, so errors/ has a row too. */
    private static final Map<String, String> CORPUS = Corpus.sample(300);
    private static final String INPUT = "corpus/sample.jsonl";
    /** The malformed line's byte offset: its position. */
    private static long brokenAt;

    @BeforeAll
    static void uploadCorpus(@TempDir Path dir) throws Exception {
        Path file = Corpus.writeJsonl(dir.resolve("sample.jsonl"), CORPUS);
        brokenAt = Files.size(file);
        Files.writeString(file, "{\"id\": \"broken\", \"text\": \n", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        S3.put(INPUT, file);
    }

    @Test
    void readsAndWritesS3WithEveryIdExactlyOnce() throws Exception {
        MiniClusters.embed(options("plain", "a"));

        Path out = S3.copyTo("plain/", tmp.resolve("plain"));
        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());
        assertThat(Outputs.jsonLines(out.resolve("errors"))).singleElement().satisfies(e -> {
            assertThat(e.get("reason").asText()).isEqualTo("malformed_json");
            assertThat(e.get("source").asText()).endsWith("sample.jsonl@" + brokenAt);
        });
        assertThat(Outputs.jsonLines(out.resolve("metrics"))).isNotEmpty();
        assertThat(S3.keys("plain/embeddings/")).as("committed files and one receipt per committer subtask")
                .allMatch(k -> k.matches("plain/embeddings/(part-a-.*\\.parquet|_committed-a\\.write-embeddings-parquet-\\d+-of-\\d+)"))
                .anyMatch(k -> k.matches("plain/embeddings/part-a-.*\\.parquet"))
                .anyMatch(k -> k.startsWith("plain/embeddings/_committed-a.write-embeddings-parquet-"));
    }

    @Test
    void runLeavesSummaryReportAndSuccessMarkerAndReportRebuildsThere() throws Exception {
        RunSummary summary = MiniClusters.embed(options("full", "a"));

        assertThat(summary).as("run summary for an s3:// output").isNotNull();
        assertThat(summary.succeeded).isEqualTo(CORPUS.size());
        assertThat(summary.failed).isEqualTo(1);
        assertThat(S3.keys("full/"))
                .contains("full/run-info-a.json", "full/report-a.json", "full/report-a.html", "full/_SUCCESS-a")
                .anyMatch(k -> k.startsWith("full/metrics/part-a-"))
                .anyMatch(k -> k.startsWith("full/errors/part-a-"));

        S3.delete("full/report-a.json");
        S3.delete("full/report-a.html");
        int exit = new CommandLine(new ReportCommand()).execute("--output", S3.uri("full"), "--run-id", "a");
        assertThat(exit).isZero();
        assertThat(S3.keys("full/")).contains("full/report-a.json", "full/report-a.html");
        JsonNode report = new ObjectMapper().readTree(S3.read("full/report-a.json"));
        assertThat(report.get("succeeded").asLong()).isEqualTo(CORPUS.size());
        assertThat(report.get("failed").asLong()).isEqualTo(1);

        // a detached run whose ledger is there but one committer has not finished: on S3 its
        // uncommitted files are invisible, so only the missing receipt tells; --mark-success waits
        S3.delete("full/_SUCCESS-a");
        String receipt = S3.keys("full/metrics/").stream().filter(k -> k.contains("/_committed-a.write-metrics-"))
                .findFirst().orElseThrow();
        Path saved = tmp.resolve("receipt");
        Files.write(saved, S3.read(receipt));
        assertThat(Files.readString(saved)).as("the committers named their files on S3 too")
                .contains("\"files\":1,").contains("\"removedEarlierAttempts\":0");
        S3.delete(receipt);
        String[] mark = {"--output", S3.uri("full"), "--run-id", "a", "--mark-success"};
        assertThat(new CommandLine(new ReportCommand()).execute(mark)).as("a committer still committing").isNotZero();
        assertThat(S3.keys("full/")).doesNotContain("full/_SUCCESS-a");
        S3.put(receipt, saved);
        assertThat(new CommandLine(new ReportCommand()).execute(mark)).isZero();
        assertThat(S3.keys("full/")).contains("full/_SUCCESS-a");
    }

    @Test
    void rerunIsRefusedAndOverwriteReplacesOnlyThatRunsObjects() throws Exception {
        MiniClusters.embed(options("rerun", "keep"));
        MiniClusters.embed(options("rerun", "redo"));
        Map<String, byte[]> kept = objectsOf("rerun/", "keep");
        List<String> earlierRedo = new ArrayList<>(objectsOf("rerun/", "redo").keySet());

        assertThatThrownBy(() -> MiniClusters.embed(options("rerun", "redo")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already holds");
        MiniClusters.embed(options("rerun", "redo", "--overwrite"));

        assertThat(objectsOf("rerun/", "keep")).as("the other run's objects, byte for byte")
                .containsOnlyKeys(kept.keySet())
                .allSatisfy((key, bytes) -> assertThat(bytes).isEqualTo(kept.get(key)));
        assertThat(S3.keys("rerun/")).contains("rerun/_SUCCESS-redo")
                .doesNotContainAnyElementsOf(earlierRedo.stream().filter(k -> k.contains("/part-")).toList());
        Path redo = S3.copyTo("rerun/", tmp.resolve("redo"), k -> k.contains("/part-redo-"));
        assertThat(Outputs.embeddings(redo).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());
        assertThat(Outputs.jsonLines(redo.resolve("errors"))).hasSize(1);
    }

    @Test
    void failingQualityFloorLeavesNoSuccessMarkerButKeepsTheOutputs() {
        assertThatThrownBy(() -> MiniClusters.embed(options("gate", "q",
                        "--quality-sample", "20", "--quality-floor", "1.5")))
                .isInstanceOf(QualityGateException.class);

        assertThat(S3.keys("gate/")).doesNotContain("gate/_SUCCESS-q")
                .anyMatch(k -> k.startsWith("gate/embeddings/part-q-"))
                .anyMatch(k -> k.startsWith("gate/metrics/part-q-"))
                .anyMatch(k -> k.startsWith("gate/errors/part-q-"));
    }

    /** Key → bytes of the objects under {@code prefix} named after {@code runId}. */
    private static Map<String, byte[]> objectsOf(String prefix, String runId) {
        Map<String, byte[]> objects = new LinkedHashMap<>();
        for (String key : S3.keys(prefix)) {
            String name = key.substring(key.lastIndexOf('/') + 1);
            if (name.startsWith("part-" + runId + "-") || name.matches(".*-" + runId + "(\\.json|\\.html)?")) {
                objects.put(key, S3.read(key));
            }
        }
        return objects;
    }

    private static RunOptions options(String prefix, String runId, String... more) {
        List<String> args = new ArrayList<>(List.of("--input", S3.uri(INPUT),
                "--output", S3.uri(prefix), "--run-id", runId, "--parallelism", "2"));
        args.addAll(List.of(more));
        return Jobs.options(args.toArray(String[]::new));
    }
}
