package io.github.flinkinfer.operators.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import org.junit.jupiter.api.Test;

class ErrorBudgetTest {
    private static void fail(RunLedger l, ErrorReason reason, int n) {
        for (int i = 0; i < n; i++) {
            ErrorRecord e = reason.record("id" + i, "/data/a.jsonl:" + i, "bad", 0);
            l.addError(e);
        }
    }

    private static void parse(RunLedger l, int n) {
        for (int i = 0; i < n; i++) {
            l.addParsed("/data/a.jsonl:" + i);
        }
    }

    @Test
    void absoluteCapTripsOnTheFirstErrorOverIt() {
        ErrorBudget b = new ErrorBudget(2, 1.0, 1000);
        RunLedger l = new RunLedger();
        fail(l, ErrorReason.MALFORMED_JSON, 2);
        assertThat(b.violation(l, false)).isEmpty();
        fail(l, ErrorReason.OUT_OF_MEMORY, 1);
        assertThat(b.violation(l, false)).get().asString()
                .contains("3 failed inputs > --max-errors 2")
                .contains("parse/malformed_json=2, infer/out_of_memory=1");
    }

    @Test
    void rateIsJudgedAfterTheMinimumAndAtTheEnd() {
        ErrorBudget b = new ErrorBudget(-1, 0.1, 100);
        RunLedger l = new RunLedger();
        fail(l, ErrorReason.MISSING_ID, 5);
        assertThat(b.violation(l, false)).as("too few records to judge yet").isEmpty();
        assertThat(b.violation(l, true)).get().asString().contains("error rate 1.0000 (5 of 5 inputs)");
        parse(l, 95);
        assertThat(b.violation(l, false)).isEmpty(); // 5 / 100 = 0.05
        fail(l, ErrorReason.MALFORMED_JSON, 10);
        assertThat(b.violation(l, false)).get().asString().contains("15 of 110");
    }

    @Test
    void duplicatesDroppedByPolicyAreNotFailures() {
        ErrorBudget b = new ErrorBudget(0, 0.0, 1);
        RunLedger l = new RunLedger();
        parse(l, 10);
        fail(l, ErrorReason.DUPLICATE_ID, 3);
        assertThat(b.violation(l, true)).isEmpty();
    }

    @Test
    void maxErrorsMinusOneAndRateOneAreUnlimited() {
        assertThat(new ErrorBudget(-1, 1.0, 1000).unlimited()).isTrue();
        assertThat(new ErrorBudget(-1, 0.01, 1000).unlimited()).isFalse();
    }
}
