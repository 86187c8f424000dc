package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.jobs.workload.Deadline;
import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadContractException;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict.Status;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every clause met, missed and not set, on a run with known totals and batches. */
class WorkloadVerdictsTest {
    static final long SUBMITTED = 1_764_500_000_000L;
    static final WorkloadPlan.Forecast FORECAST = new WorkloadPlan.Forecast(100, 5000, 4, 16, 20, 0.01, "USD");

    /** 100 input records: 90 succeeded in three batches of 30, 10 failed; 25 s wall, 0.012 USD. */
    static WorkloadVerdicts.Actuals run() {
        return run(new RunSummary.Quality(40, "cosine", 0.975, 0.991));
    }

    static WorkloadVerdicts.Actuals run(RunSummary.Quality quality) {
        return new WorkloadVerdicts.Actuals(25, 90, 10, 0, new RunSummary.Cost("USD", 0, 0, 0.012, 0, 90, 10, 0, 0),
                quality);
    }

    /** Three batches of 30 items: queue wait + batch time 1 s, 2 s and 5 s. */
    static List<BatchMetrics> batches() {
        return List.of(batch(30, 400, 600), batch(30, 1500, 500), batch(30, 1000, 4000));
    }

    static BatchMetrics batch(int items, double queueWaitMs, double totalMs) {
        BatchMetrics m = new BatchMetrics();
        m.items = items;
        m.queueWaitMs = queueWaitMs;
        m.totalMs = totalMs;
        return m;
    }

    static WorkloadContract contract(String deadline, Double budget, Double minCosine, Double meanCosine,
            Long latencyMs) {
        return new WorkloadContract("card.yaml", "nightly", "all-minilm-l6-v2-q",
                deadline == null ? null : Deadline.parse(deadline), budget, "USD", minCosine, meanCosine, null,
                latencyMs, "all-minilm-l6-v2-q", FORECAST);
    }

    /** Judges {@code s} as a run whose job tallied {@code batches} against the card's latency bound. */
    static List<WorkloadVerdict> judge(WorkloadContract c, WorkloadVerdicts.Actuals s, List<BatchMetrics> batches,
            long submitted) {
        io.github.flinkinfer.operators.ledger.RunLedger l = new io.github.flinkinfer.operators.ledger.RunLedger();
        l.latencyBoundMs = c.latencyMaxItemMs();
        batches.forEach(l::addBatch);
        return WorkloadVerdicts.judge(c, new WorkloadVerdicts.Actuals(s.wallSeconds(), s.succeeded(), s.failed(),
                l.withinLatencyBound, s.cost(), s.quality()), submitted);
    }

    static WorkloadVerdict verdict(List<WorkloadVerdict> all, String clause) {
        return all.stream().filter(v -> v.clause().equals(clause)).findFirst().orElseThrow();
    }

    @Test
    void everyClauseMet() {
        List<WorkloadVerdict> v = judge(contract("1m", 0.05, 0.97, 0.99, null), run(),
                batches(), SUBMITTED);
        assertThat(v).extracting(WorkloadVerdict::clause).containsExactly(WorkloadVerdicts.DEADLINE,
                WorkloadVerdicts.BUDGET, WorkloadVerdicts.QUALITY, WorkloadVerdicts.GOODPUT,
                WorkloadVerdicts.COST_PER_ITEM);
        assertThat(v).allMatch(x -> x.status() == Status.MET, "all met");

        WorkloadVerdict deadline = verdict(v, WorkloadVerdicts.DEADLINE);
        assertThat(deadline.actual()).isEqualTo(25.0);
        assertThat(deadline.target()).isEqualTo(60.0);
        assertThat(deadline.forecast()).isEqualTo(20.0);
        assertThat(deadline.detail()).contains("finished 25.0 s after submission", "actual 1.25× forecast",
                "2025-11-30T10:54:20Z");
        WorkloadVerdict budget = verdict(v, WorkloadVerdicts.BUDGET);
        assertThat(budget.actual()).isEqualTo(0.012);
        assertThat(budget.target()).isEqualTo(0.05);
        assertThat(budget.forecast()).isEqualTo(0.01);
        assertThat(budget.detail()).contains("24.0%", "actual 1.20× forecast");
        // no latency bound: every success counts; failed records do not
        assertThat(verdict(v, WorkloadVerdicts.GOODPUT).actual()).isEqualTo(0.9);
        WorkloadVerdict perItem = verdict(v, WorkloadVerdicts.COST_PER_ITEM);
        assertThat(perItem.actual()).isCloseTo(0.012 / 90, within(1e-12));
        assertThat(perItem.forecast()).isCloseTo(0.0001, within(1e-12));
        assertThat(perItem.target()).isCloseTo(0.05 / 100, within(1e-12));
    }

    @Test
    void everyClauseMissed() {
        List<WorkloadVerdict> v = judge(contract("20s", 0.001, 0.98, null, 1500L), run(),
                batches(), SUBMITTED);
        assertThat(v).allMatch(WorkloadVerdict::missed, "all missed");
        assertThat(verdict(v, WorkloadVerdicts.DEADLINE).detail()).contains("5.0 s late");
        assertThat(verdict(v, WorkloadVerdicts.QUALITY).detail())
                .contains("min cosine 0.97500 < floor 0.98000", "over 40 sampled outputs");
        // the quality miss zeroes goodput, whatever the latency
        assertThat(verdict(v, WorkloadVerdicts.GOODPUT).actual()).isZero();
        assertThat(verdict(v, WorkloadVerdicts.GOODPUT).detail()).contains("none counts");
    }

    @Test
    void aMissedMeanFloorIsAMissedQualityFloor() {
        WorkloadVerdict q = verdict(judge(contract(null, null, 0.97, 0.995, null), run(),
                batches(), SUBMITTED), WorkloadVerdicts.QUALITY);
        assertThat(q.status()).isEqualTo(Status.MISSED);
        assertThat(q.actual()).isEqualTo(0.991);
        assertThat(q.target()).isEqualTo(0.995);
    }

    @Test
    void goodputCountsOnlySuccessesWithinTheLatencyBound() {
        // batches of 1 s and 2 s are within 2 s, the 5 s batch is not: 60 of 100 records
        WorkloadVerdict g = verdict(judge(contract(null, null, 0.97, null, 2000L), run(),
                batches(), SUBMITTED), WorkloadVerdicts.GOODPUT);
        assertThat(g.actual()).isEqualTo(0.6);
        assertThat(g.status()).isEqualTo(Status.MISSED);
        assertThat(g.detail()).contains("60.0%: 90 of 100 input records succeeded (10 failed); 60 within",
                "≤ 2000 ms");
        WorkloadVerdict all = verdict(judge(contract(null, null, 0.97, null, 5000L), run(),
                batches(), SUBMITTED), WorkloadVerdicts.GOODPUT);
        assertThat(all.actual()).isEqualTo(0.9);
        assertThat(all.status()).isEqualTo(Status.MET);
    }

    @Test
    void clausesTheCardDoesNotSetAreReportedNotJudged() {
        List<WorkloadVerdict> v = judge(contract(null, null, null, null, null), run(),
                batches(), SUBMITTED);
        assertThat(v).allMatch(x -> x.status() == Status.NOT_SET, "none set");
        assertThat(verdict(v, WorkloadVerdicts.DEADLINE).actual()).isEqualTo(25.0);
        assertThat(verdict(v, WorkloadVerdicts.DEADLINE).forecast()).isEqualTo(20.0);
        assertThat(verdict(v, WorkloadVerdicts.BUDGET).actual()).isEqualTo(0.012);
        assertThat(verdict(v, WorkloadVerdicts.GOODPUT).actual()).isEqualTo(0.9);
        WorkloadVerdicts.enforce(v); // nothing missed: no exception
    }

    @Test
    void aFloorWithNothingSampledIsNotShownHeld() {
        WorkloadVerdicts.Actuals s = run(RunSummary.Quality.NONE);
        List<WorkloadVerdict> v = judge(contract(null, null, 0.97, null, null), s, batches(),
                SUBMITTED);
        assertThat(verdict(v, WorkloadVerdicts.QUALITY).status()).isEqualTo(Status.MISSED);
        assertThat(verdict(v, WorkloadVerdicts.GOODPUT).actual()).isZero();
    }

    @Test
    void aWallClockDeadlineIsJudgedFromTheSubmission() {
        WorkloadContract c = new WorkloadContract("card.yaml", null, "m", Deadline.parse("2025-11-30T10:53:40Z"),
                null, "USD", null, null, null, null, null, null);
        WorkloadVerdict d = verdict(judge(c, run(), batches(), SUBMITTED), WorkloadVerdicts.DEADLINE);
        assertThat(d.target()).isEqualTo(20.0); // submitted 10:53:20
        assertThat(d.status()).isEqualTo(Status.MISSED);
        assertThat(d.forecast()).isNull();
    }

    @Test
    void enforceNamesTheMissedDeadlineAndBudgetOnly() {
        List<WorkloadVerdict> v = judge(contract("20s", 0.001, 0.98, null, null), run(),
                batches(), SUBMITTED);
        assertThatThrownBy(() -> WorkloadVerdicts.enforce(v))
                .isInstanceOf(WorkloadContractException.class)
                .hasMessageContaining("deadline 25.0000 vs target 20.0000 s")
                .hasMessageContaining("budget 0.0120000 vs target 0.00100000 USD")
                .hasMessageNotContaining("quality");
    }
}
