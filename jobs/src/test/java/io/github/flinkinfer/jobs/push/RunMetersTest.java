package io.github.flinkinfer.jobs.push;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.report.AccountingException;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.PrometheusScrape;
import io.github.flinkinfer.jobs.workload.WorkloadContractException;
import io.github.flinkinfer.operators.ledger.RunLedger;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** The meters of one run as the Prometheus text format writes them: names, units, tags and values. */
class RunMetersTest {

    /** 103 read: 100 succeeded, 3 failed to parse; 7.25 s from submission to the job's end. */
    static RunSummary summary() throws Exception {
        return summary(100);
    }

    /** As {@link #summary()}, with {@code succeeded} of the 100 model inputs succeeded (the rest unaccounted). */
    static RunSummary summary(long succeeded) throws Exception {
        RunLedger l = new RunLedger();
        l.model = "all-minilm-l6-v2";
        l.readBySource.put("in.jsonl", 103L);
        l.parsed = 100;
        l.failedByReason.put("parse/invalid_json", 2L);
        l.failedByReason.put("parse/record_too_large", 1L);
        l.toModelDocs = 100;
        l.items = 100;
        l.succeeded = succeeded;
        l.realTokens = 1234;
        l.batchLatencyMs.add(12.0);
        l.batchLatencyMs.add(40.0);
        RunLedger.Lane lane = new RunLedger.Lane();
        lane.pricePerHour = 0.4;
        l.subtasks.put(0, lane);
        l.endedAtMillis = 1_700_000_007_250L;
        return RunSummary.of("r1", l, new ObjectMapper().readTree(
                "{\"submittedAtMillis\": 1700000000000, \"model\": {\"task\": \"embedding\"}}"), null);
    }

    private static PrometheusScrape scrape(RunSummary s, RunOutcome outcome) {
        PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RunMeters.register(s, outcome, r);
        return PrometheusScrape.parse(r.scrape(Pushgateway.TEXT_FORMAT));
    }

    @Test
    void everyMeterCarriesTheRunsTagsAndItsValue() throws Exception {
        PrometheusScrape p = scrape(summary(), RunOutcome.SUCCEEDED);
        assertThat(p.samples()).allSatisfy(x -> assertThat(x.labels()).containsEntry("run_id", "r1")
                .containsEntry("task", "embedding").containsEntry("model", "all-minilm-l6-v2")
                .containsEntry("workload", "none").containsEntry("outcome", "succeeded"));
        assertThat(p.of("flinkinfer_run_succeeded_items")).singleElement().extracting(PrometheusScrape.Sample::value)
                .isEqualTo(100.0);
        assertThat(p.sum("flinkinfer_run_failed_by_reason_items", x -> x.label("reason").equals("parse/invalid_json")))
                .isEqualTo(2);
        assertThat(p.of("flinkinfer_run_cost")).singleElement().satisfies(x -> {
            assertThat(x.value()).isEqualTo(7.25 * 0.4 / 3600); // the text format keeps the double exactly
            assertThat(x.label("currency")).isEqualTo("USD");
        });
        assertThat(p.sum("flinkinfer_run_batch_latency_seconds", x -> x.label("percentile").equals("max")))
                .isEqualTo(0.04);
        assertThat(p.of("flinkinfer_run_wall_seconds").get(0).value()).isEqualTo(7.25);
        assertThat(p.of("flinkinfer_run_submitted_timestamp_seconds").get(0).value()).isEqualTo(1.7e9);
        assertThat(p.names()).doesNotContain("flinkinfer_run_quality_min", "flinkinfer_run_contract_missed")
                .allSatisfy(n -> assertThat(n).startsWith("flinkinfer_run_").doesNotEndWith("_total"));
    }

    @Test
    void theOutcomeSaysWhichVerdictFailed() throws Exception {
        RunSummary s = summary();
        assertThat(RunOutcome.of(s, null)).isEqualTo(RunOutcome.SUCCEEDED);
        assertThat(RunOutcome.of(s, new QualityGateException("q"))).isEqualTo(RunOutcome.FAILED_QUALITY);
        assertThat(RunOutcome.of(s, new WorkloadContractException("w"))).isEqualTo(RunOutcome.FAILED_CONTRACT);
        assertThat(RunOutcome.of(s, new AccountingException("a"))).isEqualTo(RunOutcome.FAILED_ACCOUNTING);
        assertThat(RunOutcome.of(s, new java.io.IOException("disk"))).isEqualTo(RunOutcome.FAILED);
        assertThat(s.reconciliation.ok()).isTrue();
        s = summary(99);
        assertThat(RunOutcome.of(s, null)).as("report without --mark-success").isEqualTo(RunOutcome.FAILED_ACCOUNTING);
        assertThat(scrape(s, RunOutcome.FAILED_ACCOUNTING).samples()).allSatisfy(x ->
                assertThat(x.label("outcome")).isEqualTo("failed_accounting"));
    }
}
