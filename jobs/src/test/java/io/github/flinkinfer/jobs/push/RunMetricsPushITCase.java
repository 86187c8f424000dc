package io.github.flinkinfer.jobs.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.ReportCommand;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.PrometheusScrape;
import io.github.flinkinfer.jobs.testutils.PushgatewayServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * A run's numbers reach a real Pushgateway (Debian's prometheus-pushgateway) at its end, passed or
 * failed, and read back from the gateway's /metrics they are the numbers of the run's manifest and
 * report: counts and cost exactly (the text format round-trips doubles). {@code report} pushes the
 * same group again (replaced, not added), and a gateway that is down costs a warning, not the run.
 */
class RunMetricsPushITCase extends ClusterTestBase {
    @RegisterExtension static final PushgatewayServer GATEWAY = new PushgatewayServer();

    private static final ObjectMapper JSON = new ObjectMapper();

    /** 40 sample records and 3 lines that are not JSON (3 failures with reason parse/...). */
    private Path corpus() throws Exception {
        Path in = writeCorpus(Corpus.sample(40));
        Files.writeString(in, Files.readString(in) + "not json 1\nnot json 2\n{\"id\": \"x\"\n");
        return in;
    }

    @Test
    void aRunsNumbersAreReadBackFromTheGatewayAsItsManifestAndReportSayThem() throws Exception {
        Path out = tmp.resolve("out");
        RunSummary s = embed(corpus(), out, "pushed-1", "--parallelism", "2", "--progress-seconds", "0",
                "--max-error-rate", "0.2", "--price-tm-hour", "0.40", "--push-gateway", GATEWAY.url());
        JsonNode manifest = JSON.readTree(out.resolve("_SUCCESS-pushed-1").toFile());
        JsonNode report = JSON.readTree(out.resolve("report-pushed-1.json").toFile());
        List<PrometheusScrape.Sample> run = group("pushed-1");

        assertThat(run).isNotEmpty().allSatisfy(x -> {
            assertThat(x.labels()).containsEntry("job", PushOptions.JOB).containsEntry("run_id", "pushed-1")
                    .containsEntry("task", "embedding").containsEntry("model", s.model)
                    .containsEntry("workload", "none").containsEntry("outcome", "succeeded");
        });
        JsonNode ledger = manifest.path("ledger");
        long read = 0;
        for (JsonNode n : ledger.path("readBySource")) {
            read += n.asLong();
        }
        assertThat(read).isEqualTo(43);
        assertThat(value(run, "flinkinfer_run_read_items")).isEqualTo(read);
        assertThat(value(run, "flinkinfer_run_succeeded_items")).isEqualTo(ledger.path("succeeded").asLong())
                .isEqualTo(40);
        assertThat(value(run, "flinkinfer_run_failed_items")).isEqualTo(report.path("failed").asLong())
                .isEqualTo(3);
        ledger.path("failedByReason").fields().forEachRemaining(r -> assertThat(
                run.stream().filter(x -> x.name().equals("flinkinfer_run_failed_by_reason_items")
                        && r.getKey().equals(x.label("reason"))).mapToDouble(PrometheusScrape.Sample::value).sum())
                .as(r.getKey()).isEqualTo(r.getValue().asLong()));
        assertThat(value(run, "flinkinfer_run_reconciled")).isEqualTo(manifest.path("reconciliation").path("ok")
                .asBoolean() ? 1 : 0).isEqualTo(1);
        JsonNode cost = report.path("cost");
        assertThat(cost.path("total").asDouble()).isPositive();
        assertThat(value(run, "flinkinfer_run_cost")).isEqualTo(cost.path("total").asDouble());
        assertThat(value(run, "flinkinfer_run_cost_per_item")).isEqualTo(cost.path("perItem").asDouble());
        assertThat(value(run, "flinkinfer_run_cost_per_successful_item"))
                .isEqualTo(cost.path("perSuccessfulItem").asDouble());
        assertThat(value(run, "flinkinfer_run_cost_per_million_real_tokens"))
                .isEqualTo(cost.path("per1MRealTokens").asDouble());
        assertThat(value(run, "flinkinfer_run_wall_seconds")).isEqualTo(manifest.path("wallSeconds").asDouble());
        assertThat(value(run, "flinkinfer_run_real_tokens")).isEqualTo(ledger.path("realTokens").asLong());
        assertThat(run.stream().filter(x -> x.name().equals("flinkinfer_run_cost")).findFirst().orElseThrow()
                .label("currency")).isEqualTo(cost.path("currency").asText());

        // report pushes the same group again: replaced, so the gateway holds each series once
        int series = run.size();
        assertThat(report(out, "pushed-1", "--push-gateway", GATEWAY.url())).isZero();
        List<PrometheusScrape.Sample> again = group("pushed-1");
        assertThat(again).hasSize(series);
        assertThat(value(again, "flinkinfer_run_succeeded_items")).isEqualTo(40);

        // what a push adds to a run's end: meters built, text written, one PUT answered
        List<Double> millis = new ArrayList<>();
        PushOptions push = new PushOptions();
        push.pushGateway = URI.create(GATEWAY.url());
        for (int i = 0; i < 7; i++) {
            millis.add(RunMetrics.push(push, s, RunOutcome.SUCCEEDED, Map.of()).millis());
        }
        List<Double> sorted = millis.stream().sorted().toList();
        System.out.printf("push of %d series to a local Pushgateway: first %.1f ms, median %.1f ms, max %.1f ms"
                + " (7 pushes after the run's own)%n", series, millis.get(0), sorted.get(3), sorted.get(6));
        assertThat(group("pushed-1")).hasSize(series);
    }

    /**
     * Issue 40: one run with every kind of input (succeeded, failed, skipped as unchanged and
     * duplicate ids), and its console summary, report JSON, manifest and the metrics read back from
     * the gateway all give the same five numbers, which add up to what was read. Duplicates are
     * dropped, not failed: they never count in {@code failed}.
     */
    @Test
    void consoleReportManifestAndPushAgreeOnEveryCount() throws Exception {
        Map<String, String> all = Corpus.sample(40);
        List<String> ids = new ArrayList<>(all.keySet());
        Map<String, String> day1 = new java.util.LinkedHashMap<>();
        ids.subList(0, 30).forEach(id -> day1.put(id, all.get(id)));
        Path previous = tmp.resolve("day1");
        embed(Corpus.writeJsonl(tmp.resolve("day1.jsonl"), day1), previous, "agree-1",
                "--parallelism", "2", "--progress-seconds", "0");

        Map<String, String> day2 = new java.util.LinkedHashMap<>(day1); // 25 unchanged: skipped
        for (String id : ids.subList(0, 5)) {
            day2.put(id, all.get(id) + " (revised)"); // 5 changed
        }
        ids.subList(30, 40).forEach(id -> day2.put(id, all.get(id))); // 10 new
        Path in = Corpus.writeJsonl(tmp.resolve("day2.jsonl"), day2);
        StringBuilder extra = new StringBuilder(); // 4 duplicate ids (of new documents), 3 failures
        for (String id : ids.subList(30, 34)) {
            extra.append(JSON.writeValueAsString(Map.of("id", id, "text", "again " + id))).append('\n');
        }
        extra.append("not json\n{\"id\": null, \"text\": \"x\"}\n{\"id\": \"t\", \"text\": \"\"}\n");
        Files.writeString(in, Files.readString(in) + extra);

        Path out = tmp.resolve("day2");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        RunSummary s;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8)); // the push prints its line
        try {
            s = embed(in, out, "agree-2", "--parallelism", "2", "--progress-seconds", "0", "--max-error-rate", "0.2",
                    "--previous-output", previous.toString(), "--price-tm-hour", "0.40",
                    "--push-gateway", GATEWAY.url());
            io.github.flinkinfer.jobs.run.InferenceRun.print(s, out.toString(), System.out); // as the CLI does
        } finally {
            System.setOut(stdout);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        stdout.print(printed);

        long read = 25 + 5 + 10 + 4 + 3;
        Map<String, Long> expected = Map.of("read", read, "succeeded", 15L, "failed", 3L, "skipped", 25L,
                "duplicates", 4L);
        JsonNode manifest = JSON.readTree(out.resolve("_SUCCESS-agree-2").toFile()).path("counts");
        JsonNode report = JSON.readTree(out.resolve("report-agree-2.json").toFile());
        List<PrometheusScrape.Sample> pushed = group("agree-2");
        Map<String, String> reportField = Map.of("read", "read", "succeeded", "succeeded", "failed", "failed",
                "skipped", "skippedUnchanged", "duplicates", "duplicates");
        expected.forEach((count, n) -> {
            assertThat(manifest.path(count).asLong()).as("manifest " + count).isEqualTo(n);
            assertThat(report.path(reportField.get(count)).asLong()).as("report " + count).isEqualTo(n);
            assertThat(value(pushed, "flinkinfer_run_" + count + "_items")).as("pushed " + count).isEqualTo((double) n);
        });
        assertThat(pushed.stream().filter(x -> x.name().equals("flinkinfer_run_failed_by_reason_items"))
                .mapToDouble(PrometheusScrape.Sample::value).sum()).as("pushed failures by reason").isEqualTo(3);
        assertThat(report.path("errorsByReason")).isEqualTo(manifest.path("failedByReason"));
        assertThat(value(pushed, "flinkinfer_run_reconciled")).isEqualTo(1);
        assertThat(report.path("cost").path("perItem").asDouble())
                .isEqualTo(report.path("cost").path("total").asDouble() / (15 + 3));
        assertThat(printed).contains(String.format(java.util.Locale.ROOT,
                "read %d = succeeded 15 + failed 3 + skipped 25 + duplicates 4", read))
                .containsPattern("failed \\(errors/\\) +3 ")
                .containsPattern("skipped unchanged +25 ")
                .containsPattern("duplicates +4 ")
                .contains("(outcome succeeded)");
        // errors/ holds each failure and each duplicate once
        assertThat(io.github.flinkinfer.jobs.testutils.Outputs.jsonLines(out.resolve("errors"))).hasSize(3 + 4);
    }

    @Test
    void aRunFailingItsQualityGateIsPushedWithThatOutcome() throws Exception {
        Path out = tmp.resolve("q");
        assertThatThrownBy(() -> embed(corpus(), out, "pushed-q", "--parallelism", "2", "--progress-seconds", "0",
                "--max-error-rate", "0.2", "--quality-sample", "5", "--quality-floor", "1.5",
                "--push-gateway", GATEWAY.url())).isInstanceOf(QualityGateException.class);
        assertThat(out.resolve("_SUCCESS-pushed-q")).doesNotExist();
        JsonNode report = JSON.readTree(out.resolve("report-pushed-q.json").toFile());
        List<PrometheusScrape.Sample> run = group("pushed-q");
        assertThat(run).isNotEmpty().allSatisfy(x -> assertThat(x.label("outcome")).isEqualTo("failed_quality"));
        assertThat(value(run, "flinkinfer_run_succeeded_items")).isEqualTo(report.path("succeeded").asLong());
        assertThat(value(run, "flinkinfer_run_quality_checked_items")).isEqualTo(5);
        assertThat(value(run, "flinkinfer_run_quality_min")).isCloseTo(report.path("quality").path("min").asDouble(),
                within(1e-12));
    }

    @Test
    void aGatewayThatIsDownWarnsAndLeavesTheRunsResultAlone() throws Exception {
        Path out = tmp.resolve("down");
        embed(corpus(), out, "down", "--parallelism", "2", "--progress-seconds", "0", "--max-error-rate", "0.2");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = report(out, "down", "--push-gateway", "http://127.0.0.1:1");
        } finally {
            System.setErr(err);
        }
        assertThat(code).isZero();
        assertThat(out.resolve("_SUCCESS-down")).exists();
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .contains("warning: the run's metrics were not pushed to http://127.0.0.1:1: ConnectException");
        assertThat(group("down")).isEmpty();
    }

    private static int report(Path out, String runId, String... extra) {
        List<String> args = new ArrayList<>(List.of("--output", out.toString(), "--run-id", runId));
        args.addAll(List.of(extra));
        return new CommandLine(new ReportCommand()).execute(args.toArray(String[]::new));
    }

    /** The gateway's samples of run {@code runId}'s group (its own push_time_seconds and the like left out). */
    private static List<PrometheusScrape.Sample> group(String runId) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(GATEWAY.url() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return PrometheusScrape.parse(r.body()).samples().stream()
                .filter(x -> runId.equals(x.label("run_id")) && x.name().startsWith("flinkinfer_run_")).toList();
    }

    private static double value(List<PrometheusScrape.Sample> run, String name) {
        List<PrometheusScrape.Sample> found = run.stream().filter(x -> x.name().equals(name)).toList();
        assertThat(found).as(name).hasSize(1);
        return found.get(0).value();
    }
}
