package io.github.flinkinfer.operators.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import org.junit.jupiter.api.Test;

class RunLedgerTest {
    private static BatchMetrics batch(int subtask, long start, int items, int failed) {
        BatchMetrics m = new BatchMetrics();
        m.subtask = subtask;
        m.subtasks = 2;
        m.startedAtMillis = start;
        m.totalMs = 10;
        m.items = items;
        m.failedItems = failed;
        m.realTokens = items * 8L;
        m.paddedTokens = items * 10L;
        m.bucketEdge = 16;
        m.subtaskPricePerHour = 3.6;
        m.costBusy = 0.00001;
        return m;
    }

    /** Two subtasks' partials: 100 read in two files, 3 bad lines, 2 duplicates, 95 to the model. */
    private static RunLedger[] partials() {
        RunLedger a = new RunLedger();
        RunLedger b = new RunLedger();
        for (int i = 0; i < 97; i++) {
            (i % 2 == 0 ? a : b).addParsed((i < 50 ? "/in/x/part.jsonl:" : "/in/y/part.jsonl:") + i);
        }
        for (int i = 0; i < 3; i++) {
            a.addError(ErrorReason.MALFORMED_JSON.record(null, "/in/y/part.jsonl:" + (200 + i), "bad", 0));
        }
        for (int i = 0; i < 2; i++) {
            b.addError(ErrorReason.DUPLICATE_ID.record("d" + i, "/in/x/part.jsonl:" + (300 + i), "dup", 0));
        }
        for (int i = 0; i < 95; i++) {
            (i % 2 == 0 ? a : b).addItem(true);
        }
        a.addBatch(batch(0, 1_000, 48, 1));
        b.addBatch(batch(1, 1_005, 47, 0));
        a.addError(ErrorReason.INFERENCE_FAILED.record("x", "/in/x/part.jsonl:7", "failed", 0));
        for (int i = 0; i < 94; i++) {
            (i % 2 == 0 ? a : b).addWritten();
        }
        return new RunLedger[] {a, b};
    }

    /** Issue 40: the counts every reader shows keep duplicates out of failed and its reasons. */
    @Test
    void countsKeepDuplicatesApartFromFailures() {
        RunLedger[] p = partials();
        RunLedger run = new RunLedger();
        run.merge(p[0]);
        run.merge(p[1]);
        RunCounts c = run.counts();
        assertThat(c).extracting(RunCounts::read, RunCounts::succeeded, RunCounts::failed, RunCounts::skipped,
                RunCounts::duplicates).containsExactly(100L, 94L, 4L, 0L, 2L);
        assertThat(c.read()).isEqualTo(c.succeeded() + c.failed() + c.skipped() + c.duplicates());
        assertThat(c.failedByReason()).containsOnlyKeys("parse/malformed_json", "infer/inference_failed")
                .containsEntry("parse/malformed_json", 3L);
        assertThat(c.failedByReason().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(c.failed());
        assertThat(run.errorRows()).as("errors/ holds both").isEqualTo(c.failed() + c.duplicates());
    }

    @Test
    void mergedPartialsReconcileAndSurviveJson() {
        RunLedger[] p = partials();
        RunLedger run = new RunLedger();
        run.merge(RunLedger.fromJson(p[0].toJson()));
        run.merge(RunLedger.fromJson(p[1].toJson()));
        assertThat(run.read()).isEqualTo(100);
        assertThat(run.readBySource).containsEntry("/in/x/part.jsonl", 50L).containsEntry("/in/y/part.jsonl", 50L);
        Reconciliation r = run.reconcile();
        assertThat(r.mismatches()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.statement()).isEqualTo("read 100 = succeeded 94 + failed 4 + skipped 0 + duplicates 2");
        assertThat(run.subtasks).containsOnlyKeys(0, 1);
        assertThat(run.batchLatencyMs.total).isEqualTo(2);
        assertThat(run.paddingByBucket.get(16)).containsExactly(760L, 950L);
    }

    @Test
    void aLostRecordIsNamedByTheEquationItBreaks() {
        RunLedger[] p = partials();
        p[0].written--; // one result never reached the files
        p[0].merge(p[1]);
        Reconciliation r = p[0].reconcile();
        assertThat(r.ok()).isFalse();
        assertThat(r.mismatches()).containsExactly("rows written = succeeded + carried/pooled rows: 93 ≠ 94 (-1)");
    }

    @Test
    void laneSegmentsStayBoundedWhateverTheBatches() {
        RunLedger l = new RunLedger();
        int sizeAt2000 = 0;
        for (int i = 0; i < 10_000; i++) {
            l.addBatch(batch(0, 1_000L + 20L * i, 10, 0));
            if (i == 1_999) {
                sizeAt2000 = l.toJson().length();
            }
        }
        RunLedger.Lane lane = l.subtasks.get(0);
        assertThat(lane.segments).hasSizeLessThanOrEqualTo(RunLedger.Lane.MAX_SEGMENTS);
        assertThat(lane.segments.stream().mapToDouble(s -> s[2]).sum()).isEqualTo(100_000.0);
        assertThat(lane.batches).isEqualTo(10_000);
        assertThat(l.toJson().length()).as("5x the batches, same size").isLessThan((int) (sizeAt2000 * 1.1));
    }

    @Test
    void parsedRecordsAreCountedPerSourceAcrossSourceChanges() {
        RunLedger l = new RunLedger();
        for (String p : new String[] {"/a/part.jsonl:1", "/a/part.jsonl:2", "/b/part.jsonl:1", "/a/part.jsonl:3",
                "/a/part.jsonl.gz:1", "t-0@7", "t-0@8"}) {
            l.addParsed(p);
        }
        assertThat(l.read()).isEqualTo(7);
        assertThat(RunLedger.fromJson(l.toJson()).readBySource).containsExactly(java.util.Map.entry("/a/part.jsonl", 3L),
                java.util.Map.entry("/a/part.jsonl.gz", 1L), java.util.Map.entry("/b/part.jsonl", 1L),
                java.util.Map.entry("t-0", 2L));
    }

    @Test
    void sourcesAreWholePathsWithoutLineOrOffset() {
        assertThat(RunLedger.sourceOf("/a/b/part.jsonl:12")).isEqualTo("/a/b/part.jsonl");
        assertThat(RunLedger.sourceOf("s3://bucket/x/part.jsonl:3")).isEqualTo("s3://bucket/x/part.jsonl");
        assertThat(RunLedger.sourceOf("mail-0@1234")).isEqualTo("mail-0");
        assertThat(RunLedger.sourceOf(null)).isEqualTo("unknown");
    }

    @Test
    void documentsWithResultLeaveOutEveryDocumentThatFailedAtOrAfterTheModel() {
        RunLedger l = new RunLedger();
        for (int d = 0; d < 10; d++) { // 10 documents of 3 windows each reach the model
            for (int w = 0; w < 3; w++) {
                l.addItem(w == 0);
            }
        }
        l.addItem(true); // a one-window document
        l.addError(ErrorReason.TOO_LONG.record("t", "/a/part.jsonl:1", "long", 0)); // never reached the model
        l.addError(ErrorReason.DUPLICATE_ID.record("d0", "/a/part.jsonl:2", "dup", 0));
        l.addFailedWindow();
        l.addFailedWindow(); // two windows of one document failed: one row for the document
        l.addError(ErrorReason.WINDOW_FAILED.record("d3", "/a/part.jsonl:9", "2 windows failed", 0));
        l.addError(ErrorReason.INFERENCE_FAILED.record("one", "/a/part.jsonl:11", "failed", 0));

        assertThat(l.toModelDocs).isEqualTo(11);
        assertThat(l.documentsWithResult()).isEqualTo(9); // 11 - the chunked one - the one-window one
    }

    @Test
    void partialsMadeByReadersCountTheirDocumentsAndOthersAddNone() {
        RunLedger[] p = partials(); // a parsed 49 documents, b 48
        p[0].madeBy(3, 4);
        p[1].madeBy(1, 4);
        RunLedger batches = new RunLedger();
        batches.addItem(true);
        batches.madeBy(0, 2); // another stage's partial: no documents parsed
        RunLedger again = new RunLedger(); // a later partial of reader 3 (after a checkpoint)
        again.addParsed("/in/x/part.jsonl@9");
        again.madeBy(3, 4);
        RunLedger run = RunLedger.fromJson(merged(p[0], p[1], batches, again).toJson());
        assertThat(run.parsedByReader).containsExactly(java.util.Map.entry(1, 48L), java.util.Map.entry(3, 50L));
        assertThat(run.readers).isEqualTo(4);
    }

    private static RunLedger merged(RunLedger... partials) {
        RunLedger run = new RunLedger();
        for (RunLedger partial : partials) {
            run.merge(partial);
        }
        return run;
    }
}
