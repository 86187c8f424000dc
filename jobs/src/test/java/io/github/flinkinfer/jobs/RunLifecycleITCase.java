package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.moderation.ModerationTask;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The one run lifecycle, the same for both tasks: verdicts decide the success marker, the
 * default quality reference fits the task, the output location is the same whatever form its
 * path takes, and re-runs neither duplicate nor touch other runs' files.
 */
class RunLifecycleITCase extends ClusterTestBase {
    static final Map<String, String> CORPUS = Corpus.sample(60);

    private Path input() {
        return Corpus.writeJsonl(tmp.resolve("in.jsonl"), CORPUS);
    }

    private RunSummary embed(String output, String runId, String... extra) throws Exception {
        return MiniClusters.embed(Jobs.options(args(output, runId, extra)));
    }

    private RunSummary moderate(String output, String runId, String... extra) throws Exception {
        RunOptions o = Jobs.options(args(output, runId, extra));
        o.model = ModerationJob.DEFAULT_MODEL;
        return ModerationJob.run(o, o.environment());
    }

    private String[] args(String output, String runId, String... extra) {
        return Stream.concat(Stream.of("--input", input().toString(), "--output", output,
                "--run-id", runId, "--parallelism", "2", "--progress-seconds", "0"), Stream.of(extra))
                .toArray(String[]::new);
    }

    @Test
    void aQualityFloorNotMetFailsEitherTaskWithoutSuccessMarker() throws Exception {
        String[] floor = {"--quality-sample", "10", "--quality-floor", "1.5"};
        Path e = tmp.resolve("embed");
        assertThatThrownBy(() -> embed(e.toString(), "f", floor))
                .isInstanceOf(QualityGateException.class).hasMessageContaining("cosine min");
        Path m = tmp.resolve("moderate");
        assertThatThrownBy(() -> moderate(m.toString(), "f", floor))
                .isInstanceOf(QualityGateException.class).hasMessageContaining("label_agreement mean");
        for (Path out : List.of(e, m)) {
            assertThat(out.resolve("_SUCCESS-f")).doesNotExist();
            assertThat(out.resolve("report-f.json")).exists(); // outputs stay for inspection
        }
        assertThat(Outputs.committed(m.resolve(ModerationTask.RESULTS_DIR))).isNotEmpty();
    }

    @Test
    void moderationChecksQualityAgainstItsOwnClassifier() throws Exception {
        Path out = tmp.resolve("m");
        RunSummary s = moderate(out.toString(), "q", "--quality-sample", "10");
        assertThat(s.quality.metric).isEqualTo("label_agreement");
        assertThat(s.quality.checked).isEqualTo(10);
        assertThat(s.quality.mean).isEqualTo(1.0);
        assertThat(out.resolve("_SUCCESS-q")).exists();
    }

    @Test
    void aReferenceOfAnotherTaskIsRefusedBeforeTheRun() {
        Path out = tmp.resolve("x");
        assertThatThrownBy(() -> moderate(out.toString(), "x", "--quality-sample", "10",
                        "--quality-reference", "all-minilm-l6-v2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--quality-reference all-minilm-l6-v2 is a model for EMBEDDING");
        assertThat(out).doesNotExist();
    }

    @Test
    void fileUriAndRelativePathGiveTheSameRun() throws Exception {
        Path viaUri = tmp.resolve("uri");
        Path viaRelative = tmp.resolve("relative");
        RunSummary a = embed(viaUri.toUri().toString(), "p");
        RunSummary b = embed(Path.of("").toAbsolutePath().relativize(viaRelative).toString(), "p");
        for (Path out : List.of(viaUri, viaRelative)) {
            assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());
            assertThat(out.resolve("_SUCCESS-p")).exists();
            assertThat(out.resolve("report-p.json")).exists();
            assertThat(out.resolve("report-p.html")).exists();
            assertThat(out.resolve("run-info-p.json")).exists();
        }
        assertThat(a.succeeded).isEqualTo(b.succeeded).isEqualTo(CORPUS.size());
        assertThat(a.batches).isPositive().isEqualTo(b.batches);
        assertThat(Path.of("file:")).doesNotExist();
    }

    @Test
    void aRerunIsRefusedAndOverwriteReplacesOnlyThatRun() throws Exception {
        Path out = tmp.resolve("out");
        embed(out.toString(), "r");
        embed(out.toString(), "r-2"); // a run whose id starts with the first one's
        List<String> otherRun = filesOf(out, "r-2");
        assertThat(otherRun).hasSizeGreaterThanOrEqualTo(6);

        assertThatThrownBy(() -> embed(out.toString(), "r"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already holds")
                .hasMessageContaining("--overwrite");
        RunSummary again = embed(out.toString(), "r", "--overwrite");

        assertThat(again.succeeded).isEqualTo(CORPUS.size());
        assertThat(filesOf(out, "r-2")).isEqualTo(otherRun);
        long rRows = Outputs.jsonLines(out.resolve("metrics")).stream()
                .filter(m -> m.get("runId").asText().equals("r")).mapToLong(m -> m.get("items").asLong()).sum();
        assertThat(rRows).as("run r's items once, not twice").isEqualTo(CORPUS.size());
    }

    @Test
    void reportJudgesARunAndMarksItWhenSubmittedDetached() throws Exception {
        Path ok = tmp.resolve("ok");
        embed(ok.toString(), "d", "--quality-sample", "10", "--quality-floor", "0.99");
        Files.delete(ok.resolve("_SUCCESS-d")); // as after flink run --detached: no driver to write it
        Files.delete(ok.resolve("report-d.json"));
        assertThat(Files.readString(ok.resolve("run-info-d.json"))).as("the file outputs whose receipts count")
                .contains("\"write-embeddings-parquet\"").contains("\"write-metrics\"").contains("\"write-errors\"");
        List<Path> receipts;
        try (Stream<Path> files = Files.list(ok.resolve("embeddings"))) {
            receipts = files.filter(p -> p.getFileName().toString().startsWith("_committed-d.write-embeddings-parquet-"))
                    .sorted().toList();
        }
        assertThat(receipts).as("one for all committer subtasks").hasSize(1)
                .allSatisfy(r -> assertThat(r.getFileName().toString()).endsWith("-0-of-1"));
        long parts;
        try (Stream<Path> files = Files.list(ok.resolve("embeddings"))) {
            parts = files.filter(p -> p.getFileName().toString().matches("part-d-.*\\.parquet")).count();
        }
        assertThat(Files.readString(receipts.get(0))).as("every committed part file reported, none removed")
                .contains("\"files\":" + parts + ",").contains("\"removedEarlierAttempts\":0");
        Path aside = tmp.resolve("receipt-aside");
        Files.move(receipts.get(0), aside); // as on an object store while that committer still commits
        assertThat(report(ok, "d", "--mark-success")).as("not committed yet").isNotZero();
        assertThat(ok.resolve("_SUCCESS-d")).doesNotExist();
        Files.move(aside, receipts.get(0));
        assertThat(report(ok, "d", "--mark-success")).isZero();
        assertThat(ok.resolve("report-d.json")).exists();
        assertThat(Files.readString(ok.resolve("_SUCCESS-d"))).as("the manifest, by report")
                .contains("\"committer\" : \"report --mark-success\"").contains("\"ok\" : true");

        Path failed = tmp.resolve("failed");
        assertThatThrownBy(() -> embed(failed.toString(), "d", "--quality-sample", "10", "--quality-floor", "1.5"))
                .isInstanceOf(QualityGateException.class);
        assertThat(report(failed, "d", "--mark-success")).isNotZero();
        assertThat(failed.resolve("_SUCCESS-d")).doesNotExist();
    }

    @Test
    void anOverwriteThatWouldRepublishToKafkaIsRefused() throws Exception {
        Path out = tmp.resolve("k");
        Files.createDirectories(out);
        Files.writeString(out.resolve("_SUCCESS-k"), "earlier run\n");
        assertThatThrownBy(() -> embed(out.toString(), "k", "--overwrite",
                        "--kafka-bootstrap-servers", "localhost:1", "--kafka-output-topic", "vectors"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot take back")
                .hasMessageContaining("new --run-id");
        assertThat(out.resolve("_SUCCESS-k")).exists();
    }

    @Test
    void aRetryOfARunThatNeverCommittedCleansUpAndRunsWithoutOverwrite() throws Exception {
        Path out = tmp.resolve("retry");
        embed(out.toString(), "t");
        Files.delete(out.resolve("_SUCCESS-t")); // as after a job that failed: files, no manifest
        RunSummary again = embed(out.toString(), "t");
        assertThat(again.succeeded).isEqualTo(CORPUS.size());
        assertThat(Outputs.committed(out.resolve("embeddings")).stream().filter(p -> p.toString().contains("part-t-")))
                .as("the first attempt's files are gone").hasSize(again.subtasks);
        String manifest = Files.readString(out.resolve("_SUCCESS-t"));
        assertThat(manifest).contains("\"committer\" : \"driver\"")
                .contains("read " + CORPUS.size() + " = succeeded " + CORPUS.size());
        // each committed Parquet file with its rows, from its footer: together every result once
        com.fasterxml.jackson.databind.JsonNode embeddings =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(manifest).path("files").path("embeddings");
        assertThat(embeddings).hasSize(again.subtasks);
        long rows = 0;
        for (com.fasterxml.jackson.databind.JsonNode file : embeddings) {
            assertThat(file.path("rows").isIntegralNumber()).as(file.toString()).isTrue();
            rows += file.path("rows").asLong();
        }
        assertThat(rows).isEqualTo(again.succeeded);
    }

    @Test
    void markSuccessRefusesARunWhoseJobWroteNoLedger() throws Exception {
        Path out = tmp.resolve("running");
        embed(out.toString(), "l");
        Files.delete(out.resolve("_SUCCESS-l"));
        Files.delete(out.resolve("ledger-l.json")); // as while the job still runs: its ledger comes at its end
        assertThat(report(out, "l", "--mark-success")).isNotZero();
        assertThat(out.resolve("_SUCCESS-l")).doesNotExist();
    }

    private static int report(Path out, String runId, String... extra) {
        String[] args = Stream.concat(Stream.of("--output", out.toString(), "--run-id", runId), Stream.of(extra))
                .toArray(String[]::new);
        return new picocli.CommandLine(new io.github.flinkinfer.jobs.cli.ReportCommand()).execute(args);
    }

    private static List<String> filesOf(Path out, String runId) throws Exception {
        try (Stream<Path> all = Files.walk(out)) {
            return all.filter(Files::isRegularFile).map(p -> out.relativize(p).toString())
                    .filter(n -> n.contains("part-" + runId + "-") ? n.matches(".*part-" + runId + "-[0-9a-f]{8}-.*")
                            : n.endsWith("-" + runId) || n.endsWith("-" + runId + ".json") || n.endsWith("-" + runId + ".html"))
                    .sorted().toList();
        }
    }
}
