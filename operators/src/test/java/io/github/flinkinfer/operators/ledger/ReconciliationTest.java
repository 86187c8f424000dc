package io.github.flinkinfer.operators.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import org.junit.jupiter.api.Test;

/** The ledger's equations where keep-first runs after inference (BATCH): duplicates that reached the model. */
class ReconciliationTest {
    private static BatchMetrics batch(int items, int failed) {
        BatchMetrics m = new BatchMetrics();
        m.subtasks = 1;
        m.startedAtMillis = 1_000;
        m.totalMs = 10;
        m.items = items;
        m.failedItems = failed;
        m.bucketEdge = 16;
        return m;
    }

    /**
     * Keep-first after inference: 4 parsed, 2 of them duplicates that were inferred (one
     * succeeded, one failed at the model) and dropped; 2 kept rows written.
     */
    @Test
    void duplicatesDroppedAfterInferenceReconcileOnceAsDuplicates() {
        RunLedger l = new RunLedger();
        for (int i = 1; i <= 4; i++) {
            l.addParsed("/in/x.jsonl:" + i);
            l.addItem(true);
        }
        l.addBatch(batch(4, 1)); // the failed item is the dropped duplicate's
        l.addError(ErrorReason.DUPLICATE_ID.record("a", "/in/x.jsonl:3", "dup", 0));
        l.addError(ErrorReason.DUPLICATE_ID.record("b", "/in/x.jsonl:4", "dup", 0));
        l.addWritten();
        l.addWritten();
        assertThat(l.reconcile().ok()).isFalse(); // before the dropped outcomes are tallied

        l.addDuplicateInferred(true);
        l.addDuplicateInferred(false);
        Reconciliation r = l.reconcile();
        assertThat(r.mismatches()).isEmpty();
        assertThat(l.succeeded).isEqualTo(2);
        assertThat(r.statement()).isEqualTo(
                "read 4 = succeeded 2 + failed 0 + skipped 0 + duplicates 2 (2 duplicates inferred, then dropped)");
    }
}
