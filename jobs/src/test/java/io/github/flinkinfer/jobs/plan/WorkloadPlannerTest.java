package io.github.flinkinfer.jobs.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Contract;
import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Decision;
import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Measurement;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.ClauseCheck;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.Forecast;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.VariantEstimate;
import io.github.flinkinfer.operators.metrics.CostModel;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The choice alone, on made-up measurements: forecast, clauses, cheapest feasible, what would meet a miss. */
class WorkloadPlannerTest {
    static final CostModel CORE_HOUR = new CostModel(0, 1, 0.0475, 1, 0, 0, "USD");
    static final long RECORDS = 100_000;

    // 40 tokens a record: 4M tokens; at 2 subtasks int8 (5000 tok/s) infers 400 s, fp32 (2000) 1000 s
    static final Measurement INT8 = embedding("all-minilm-l6-v2-q", 0.9812, 0.9921, 5000, 1.3);
    static final Measurement FP32 = embedding("all-minilm-l6-v2", 0.99999, 0.99999, 2000, 2.3);

    static Measurement embedding(String model, double min, double mean, double rate, double load) {
        return new Measurement(model, WorkloadPlanner.COSINE, 400, min, mean, rate, 0.95, new int[] {16, 32, 64},
                8192, 256, 40, load);
    }

    static Contract contract(Double minCosine, Double availableSeconds, Double budget) {
        return new Contract(minCosine, null, null, availableSeconds, budget, 2, 2, CORE_HOUR);
    }

    @Test
    void forecastIsStartUpPlusTokensAtTheRateOnEverySubtaskAndCostsAllOfThem() {
        Forecast f = WorkloadPlanner.forecast(INT8, RECORDS, 2, CORE_HOUR);

        assertThat(f.tokens()).isEqualTo(4_000_000);
        assertThat(f.inferenceSeconds()).isEqualTo(400);
        assertThat(f.startupSeconds()).isCloseTo(1.3 + WorkloadPlanner.CLUSTER_START_SECONDS, within(1e-9));
        assertThat(f.seconds()).isCloseTo(404.6, within(1e-9));
        assertThat(f.cost()).isCloseTo(0.0475 * 404.6 / 3600 * 2, within(1e-12));
        assertThat(f.currency()).isEqualTo("USD");
    }

    @Test
    void int8IsChosenWhenItsDriftMeetsTheFloorAndItIsCheaper() {
        Decision d = WorkloadPlanner.decide(contract(0.97, 3600.0, 1.0), RECORDS, List.of(INT8, FP32));

        assertThat(d.feasible()).isTrue();
        assertThat(d.chosen().model()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(d.unmet()).isEmpty();
        assertThat(d.chosen().clauses()).extracting(ClauseCheck::clause)
                .containsExactly("min-cosine", "deadline", "budget");
        VariantEstimate fp32 = d.variants().get(1);
        assertThat(d.whyNot(fp32)).startsWith("meets every clause but costs").endsWith("(all-minilm-l6-v2-q)");
    }

    @Test
    void fp32IsChosenAtAFloorInt8MissesAndTheReasonNamesInt8sValue() {
        Decision d = WorkloadPlanner.decide(contract(0.99, 3600.0, 1.0), RECORDS, List.of(INT8, FP32));

        assertThat(d.chosen().model()).isEqualTo("all-minilm-l6-v2");
        assertThat(d.unmet()).isEmpty();
        assertThat(d.whyNot(d.variants().get(0))).isEqualTo("min cosine 0.9812 < floor 0.9900");
    }

    @Test
    void aDeadlineNoVariantMeetsNamesTheParallelismThatWould() {
        Decision d = WorkloadPlanner.decide(contract(0.97, 60.0, null), RECORDS, List.of(INT8, FP32));

        assertThat(d.feasible()).isFalse();
        assertThat(d.planned().model()).isEqualTo("all-minilm-l6-v2-q"); // meets the floor, fewest misses, cheapest
        // int8: 400 s of inference at 2 subtasks into 60 - 4.6 s: ceil(800 / 55.4) = 15
        assertThat(d.unmet()).singleElement().asString()
                .startsWith("deadline: 60 s available, forecast 405 s (all-minilm-l6-v2-q at parallelism 2)")
                .contains("parallelism 15 would meet it with all-minilm-l6-v2-q")
                .contains("this machine has 2 cores");
        assertThat(WorkloadPlanner.parallelismFor(d.planned().forecast(), 2, 60)).isEqualTo(15);
        WorkloadPlan plan = d.toPlan("card.yaml", "abc", Instant.parse("2026-11-30T12:00:00Z"));
        assertThat(plan.chosen()).isNull();
        assertThat(plan.feasible()).isFalse();
        assertThat(plan.settings().model()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(plan.settings().maxLength()).isEqualTo(256);
        assertThat(plan.unmet()).isEqualTo(d.unmet());
    }

    @Test
    void aDeadlineShorterThanStartUpCannotBeMetAtAnyParallelism() {
        Decision d = WorkloadPlanner.decide(contract(0.97, 4.0, null), RECORDS, List.of(INT8, FP32));

        assertThat(d.unmet()).singleElement().asString().contains("no parallelism can meet it: start-up alone is 4.6 s");
    }

    @Test
    void whenOnlyTheAccurateVariantMeetsTheFloorTheDeadlineRemedyIsForIt() {
        Decision d = WorkloadPlanner.decide(contract(0.99, 600.0, null), RECORDS, List.of(INT8, FP32));

        assertThat(d.planned().model()).isEqualTo("all-minilm-l6-v2"); // int8 meets the deadline, not the floor
        // fp32: 1000 s of inference at 2 subtasks into 600 - 5.6 s: ceil(2000 / 594.4) = 4
        assertThat(d.unmet()).singleElement().asString()
                .contains("parallelism 4 would meet it with all-minilm-l6-v2").contains("this machine has 2 cores");
    }

    @Test
    void aBudgetTooSmallNamesTheBudgetThatWouldMeetIt() {
        Decision d = WorkloadPlanner.decide(contract(0.97, null, 0.001), RECORDS, List.of(INT8, FP32));

        assertThat(d.feasible()).isFalse();
        // int8: 404.6 s on 2 cores at 0.0475 an hour = 0.010677 USD, rounded up
        assertThat(d.unmet()).containsExactly("budget: 0.001 USD, cheapest forecast 0.0107 USD"
                + " (all-minilm-l6-v2-q); a budget of 0.0107 USD would meet it");
    }

    @Test
    void aFloorNoVariantMeetsNamesTheBestMeasuredValue() {
        Decision d = WorkloadPlanner.decide(contract(0.999999, null, null), RECORDS, List.of(INT8, FP32));

        assertThat(d.planned().model()).isEqualTo("all-minilm-l6-v2"); // the highest quality
        assertThat(d.unmet()).singleElement().asString()
                .startsWith("min-cosine: floor 1.0000, best measured 1.0000 (all-minilm-l6-v2)")
                .contains("no variant meets it");
    }

    @Test
    void theCheapestFeasibleVariantWinsAndTiesGoToTheFaster() {
        Measurement other = embedding("bge-small-en-v1.5", 0.999, 0.999, 3000, 2.0);
        Measurement drifting = embedding("tiny-q", 0.90, 0.95, 20_000, 0.5);

        Decision d = WorkloadPlanner.decide(contract(0.97, 3600.0, null), RECORDS, List.of(FP32, drifting, other));
        assertThat(d.chosen().model()).isEqualTo("bge-small-en-v1.5"); // tiny-q is cheaper but misses the floor

        Contract free = new Contract(0.97, null, null, null, null, 2, 2, CostModel.FREE);
        Decision tie = WorkloadPlanner.decide(free, RECORDS, List.of(FP32, other));
        assertThat(tie.chosen().forecast().cost()).isZero();
        assertThat(tie.chosen().model()).isEqualTo("bge-small-en-v1.5"); // same cost (0), faster
        assertThat(tie.whyNot(tie.variants().get(0))).startsWith("meets every clause at the same cost but takes");
    }

    @Test
    void classifiersAreJudgedByLabelAgreement() {
        Measurement agreeing = classifier("spam-minilm", 1.0, 800);
        Measurement quick = classifier("spam-minilm-q", 0.97, 2000);
        Contract c = new Contract(null, null, 0.98, null, null, 2, 2, CORE_HOUR);

        Decision d = WorkloadPlanner.decide(c, RECORDS, List.of(quick, agreeing));

        assertThat(d.chosen().model()).isEqualTo("spam-minilm");
        assertThat(d.whyNot(d.variants().get(0))).isEqualTo("label agreement 0.9700 < floor 0.9800");
        assertThat(WorkloadPlanner.decide(new Contract(null, null, 0.95, null, null, 2, 2, CORE_HOUR), RECORDS,
                List.of(quick, agreeing)).chosen().model()).isEqualTo("spam-minilm-q");
    }

    static Measurement classifier(String model, double agreement, double rate) {
        return new Measurement(model, WorkloadPlanner.LABEL_AGREEMENT, 400, agreement, agreement, rate, 0.95,
                new int[] {16, 32, 64}, 8192, 128, 40, 1.0);
    }
}
