package io.github.flinkinfer.jobs.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.PrometheusServer;
import io.github.flinkinfer.jobs.testutils.PushgatewayServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dashboard's Runs row works on real data: two runs (one passing, one failing its quality gate)
 * push to a real Pushgateway, a real Prometheus scrapes it as production does, and every query of
 * the row, evaluated by that Prometheus, gives each run's numbers as its report states them.
 */
class RunsDashboardITCase extends ClusterTestBase {
    @RegisterExtension static final PushgatewayServer GATEWAY = new PushgatewayServer();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DASHBOARD = Corpus.locate("deploy/grafana/flink-batch-inference.json");

    @Test
    void everyQueryOfTheRunsRowGivesEachRunsNumbersFromARealPrometheus() throws Exception {
        Path in = writeCorpus(Corpus.sample(30));
        Files.writeString(in, Files.readString(in) + "not json\n");
        String[] common = {"--parallelism", "2", "--progress-seconds", "0", "--max-error-rate", "0.2",
                "--price-tm-hour", "0.40", "--push-gateway", GATEWAY.url()};
        embed(in, tmp.resolve("ok"), "dash-ok", common);
        assertThatThrownBy(() -> embed(in, tmp.resolve("q"), "dash-q", concat(common,
                "--quality-sample", "4", "--quality-floor", "1.5"))).isInstanceOf(QualityGateException.class);
        Map<String, JsonNode> reports = Map.of(
                "dash-ok", JSON.readTree(tmp.resolve("ok/report-dash-ok.json").toFile()),
                "dash-q", JSON.readTree(tmp.resolve("q/report-dash-q.json").toFile()));

        Path dir = Files.createDirectories(tmp.resolve("prometheus"));
        try (PrometheusServer prometheus = PrometheusServer.scraping("127.0.0.1:" + GATEWAY.port(), dir)) {
            awaitRuns(prometheus, 2);
            Map<String, String> exprs = runsRowQueries();
            assertThat(exprs).hasSizeGreaterThanOrEqualTo(6);
            for (Map.Entry<String, String> q : exprs.entrySet()) {
                assertThat(prometheus.query(q.getValue())).as("%s: %s", q.getKey(), q.getValue()).isNotEmpty();
            }
            for (Map.Entry<String, JsonNode> run : reports.entrySet()) {
                JsonNode r = run.getValue();
                String id = run.getKey();
                assertThat(byRun(prometheus, exprs.get("Cost per item, by run/A"), id))
                        .isEqualTo(r.path("cost").path("perSuccessfulItem").asDouble()).isPositive();
                assertThat(byRun(prometheus, exprs.get("Cost per item, by run/B"), id))
                        .isEqualTo(r.path("cost").path("perItem").asDouble());
                assertThat(byRun(prometheus, exprs.get("Failures, by run/B"), id))
                        .isEqualTo((double) r.path("failed").asLong() / r.path("read").asLong());
                assertThat(byRun(prometheus, exprs.get("Goodput and wall, by run/A"), id))
                        .isEqualTo(r.path("itemsPerSecond").asDouble());
                double failedByReason = 0;
                for (JsonNode s : prometheus.query(exprs.get("Failures, by run/A"))) {
                    if (id.equals(s.path("metric").path("run_id").asText())) {
                        failedByReason += s.path("value").get(1).asDouble();
                    }
                }
                assertThat(failedByReason).isEqualTo(r.path("failed").asDouble()).isEqualTo(1);
            }
            Map<String, Double> outcomes = new HashMap<>();
            prometheus.query(exprs.get("Runs by outcome/A")).forEach(s ->
                    outcomes.put(s.path("metric").path("outcome").asText(), s.path("value").get(1).asDouble()));
            assertThat(outcomes).containsExactlyInAnyOrderEntriesOf(Map.of("succeeded", 1.0, "failed_quality", 1.0));
        }
    }

    /** "panel title/refId" → expr of each panel below the Runs row. */
    private static Map<String, String> runsRowQueries() throws Exception {
        Map<String, String> exprs = new java.util.LinkedHashMap<>();
        boolean inRow = false;
        for (JsonNode p : JSON.readTree(DASHBOARD.toFile()).path("panels")) {
            if (p.path("type").asText().equals("row")) {
                inRow = p.path("title").asText().equals("Runs");
                continue;
            }
            if (inRow) {
                p.path("targets").forEach(t -> exprs.put(p.path("title").asText() + "/" + t.path("refId").asText(),
                        t.path("expr").asText()));
            }
        }
        return exprs;
    }

    private static double byRun(PrometheusServer prometheus, String expr, String runId) throws Exception {
        List<Double> values = new ArrayList<>();
        for (JsonNode s : prometheus.query(expr)) {
            if (runId.equals(s.path("metric").path("run_id").asText())) {
                values.add(s.path("value").get(1).asDouble());
            }
        }
        assertThat(values).as("%s for %s", expr, runId).hasSize(1);
        return values.get(0);
    }

    /** Waits (≤ 30 s) until Prometheus has scraped {@code n} runs from the gateway. */
    private static void awaitRuns(PrometheusServer prometheus, int n) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            JsonNode r = prometheus.query("count(flinkinfer_run_outcome{job=\"flink-inference\"})");
            if (!r.isEmpty() && r.get(0).path("value").get(1).asInt() == n) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("Prometheus did not scrape " + n + " runs from the Pushgateway in 30 s");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
