package io.github.flinkinfer.operators;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorBudgetTest {
    @Test
    void absoluteCapTripsOnTheFirstErrorOverIt() {
        ErrorBudget b = new ErrorBudget(2, 1.0, 1000);
        b.onError("parse/malformed_json", true);
        b.onError("parse/malformed_json", true);
        assertThat(b.violation(false)).isEmpty();
        b.onError("infer/out_of_memory", false);
        assertThat(b.violation(false)).get().asString()
                .contains("3 failed inputs > --max-errors 2")
                .contains("parse/malformed_json=2, infer/out_of_memory=1");
    }

    @Test
    void rateIsJudgedAfterTheMinimumAndAtTheEnd() {
        ErrorBudget b = new ErrorBudget(-1, 0.1, 100);
        for (int i = 0; i < 5; i++) {
            b.onError("parse/missing_id", true);
        }
        assertThat(b.violation(false)).as("too few records to judge yet").isEmpty();
        assertThat(b.violation(true)).get().asString().contains("error rate 1.0000 (5 of 5 inputs)");
        b.onProcessed(95);
        assertThat(b.violation(false)).isEmpty(); // 5 / 100 = 0.05
        for (int i = 0; i < 10; i++) {
            b.onError("infer/inference_failed", false);
        }
        assertThat(b.violation(false)).get().asString().contains("15 of 100");
    }

    @Test
    void defaultsAreUnlimited() {
        assertThat(new ErrorBudget(-1, 1.0, 1000).unlimited()).isTrue();
    }
}
