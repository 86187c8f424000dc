package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.CostModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cost arithmetic on a run with known times and prices; per-batch rows, tallied into the ledger, add up to the totals. */
class RunSummaryCostTest {
    @TempDir Path out;

    static final CostModel PRICES = new CostModel(0, 1, 0.36, 1, 0, 0.02, "USD"); // 0.0001 per second

    static BatchMetrics batch(int subtask, int seq, int items, int failed, double totalMs, long loadMs) {
        BatchMetrics m = new BatchMetrics();
        m.runId = "c";
        m.batchId = "c-" + subtask + "-" + seq;
        m.subtask = subtask;
        m.subtasks = 2;
        m.items = items;
        m.failedItems = failed;
        m.realTokens = items * 10L;
        m.paddedTokens = items * 12L;
        m.totalMs = totalMs;
        m.inferenceMs = totalMs * 0.8;
        m.startedAtMillis = 1_000_000 + seq * 1000L;
        m.subtaskOpenedAtMillis = 1_000_000;
        m.modelLoadMs = loadMs;
        m.bucketEdge = 16;
        m.model = "m@1";
        m.subtaskPricePerHour = PRICES.subtaskPricePerHour(false);
        m.costBusy = PRICES.cost(totalMs, false);
        m.referencePricePer1MTokens = PRICES.referencePricePer1MTokens();
        m.currency = "USD";
        return m;
    }

    @Test
    void costIsAttributedToBusyLoadAndIdleAndSumsUp() throws Exception {
        List<BatchMetrics> rows = new ArrayList<>();
        rows.add(batch(0, 0, 100, 0, 2000, 3000)); // subtask 0: 2 s busy + 3 s load
        rows.add(batch(0, 1, 100, 1, 3000, 0));    //             3 s busy
        rows.add(batch(1, 0, 50, 0, 5000, 4000));  // subtask 1: 5 s busy + 4 s load
        ErrorRecord parseError = ErrorRecord.of(null, "f:1", io.github.flinkinfer.operators.errors.ErrorReason.MALFORMED_JSON, "x", 1);
        ErrorRecord inferError = ErrorRecord.of("z", "f:9", io.github.flinkinfer.operators.errors.ErrorReason.INFERENCE_FAILED, "x", 3);
        ledger(out, rows, List.of(parseError, inferError), 20.0);

        RunSummary s = RunSummary.read(RunOutput.of(out.toString(), "c")); // 20 s job wall, 2 subtasks held

        assertThat(s.succeeded).isEqualTo(249);
        assertThat(s.failed).isEqualTo(2);
        assertThat(s.realTokens).isEqualTo(rows.stream().mapToLong(r -> r.realTokens).sum());
        assertThat(s.batches).isEqualTo(3);
        assertThat(s.cost.busy).isCloseTo(10 * 0.0001, within(1e-12));     // 10 busy seconds
        assertThat(s.cost.load).isCloseTo(7 * 0.0001, within(1e-12));      // 7 load seconds
        assertThat(s.cost.total).isCloseTo(2 * 20 * 0.0001, within(1e-12)); // 40 held seconds
        assertThat(s.cost.idle).isCloseTo(23 * 0.0001, within(1e-12));
        assertThat(s.cost.busy + s.cost.load + s.cost.idle).isCloseTo(s.cost.total, within(1e-12));
        assertThat(s.cost.perSuccessfulItem).isCloseTo(0.004 / 249, within(1e-12));
        assertThat(s.cost.perItem).isCloseTo(0.004 / 251, within(1e-12));
        assertThat(s.cost.per1MRealTokens).isCloseTo(0.004 / 2500 * 1e6, within(1e-9));
        assertThat(s.cost.ratioToReference).isCloseTo(s.cost.per1MRealTokens / 0.02, within(1e-9));
        assertThat(s.batchLatencyMs.get("p50")).as("a histogram bin: within 10%").isBetween(3000.0, 3300.0);
        assertThat(s.batchLatencyMs).containsEntry("p99", 5000.0).containsEntry("max", 5000.0);
        assertThat(s.paddingEfficiency).isCloseTo(10.0 / 12, within(1e-12));
        assertThat(s.errorsByReason).containsEntry("parse/malformed_json", 1L)
                .containsEntry("infer/inference_failed", 1L);
    }

    @Test
    void aSessionPreparedAheadIsChargedAsLoadThoughItWasMadeBeforeSubmission() throws Exception {
        BatchMetrics prepared = batch(0, 0, 100, 0, 2000, 50); // 0.05 s to take it and warm up
        prepared.sessionPrepared = true;
        prepared.modelReadMs = 0;
        prepared.sessionCreateMs = 950; // made by the driver while the cluster started
        ledger(out, List.of(prepared), List.of(), 10.0);

        RunSummary s = RunSummary.read(RunOutput.of(out.toString(), "c")); // 10 s from the opening

        assertThat(s.cost.load).isCloseTo(1.0 * 0.0001, within(1e-12));           // 0.05 + 0.95 s
        assertThat(s.cost.total).isCloseTo((10 + 0.95) * 0.0001, within(1e-12));  // held, plus the session made ahead
        assertThat(s.cost.busy + s.cost.load + s.cost.idle).isCloseTo(s.cost.total, within(1e-12));
    }

    /**
     * Writes the ledger the job of run {@code c} would have written for these batch rows and
     * errors, its end {@code wallSeconds} after the first subtask opened (≤ 0: at the last batch).
     */
    static void ledger(Path out, List<BatchMetrics> rows, List<ErrorRecord> errors, double wallSeconds) throws Exception {
        io.github.flinkinfer.operators.ledger.RunLedger l = new io.github.flinkinfer.operators.ledger.RunLedger();
        rows.forEach(l::addBatch);
        errors.forEach(l::addError);
        if (wallSeconds > 0) {
            l.endedAtMillis = 1_000_000 + (long) (wallSeconds * 1000);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("ledger-c.json"), l.toJson());
    }

    /** The throughput curve spreads each batch over the time it ran, and adds up to the items. */
    @Test
    void throughputSeriesSpreadsBatchesOverTheirRunTime() throws Exception {
        List<BatchMetrics> rows = new ArrayList<>();
        rows.add(batch(0, 0, 300, 0, 3000, 0)); // runs 0..3 s: 100 items/s
        rows.add(batch(1, 0, 100, 0, 3000, 0)); // runs 0..3 s beside it: +33 items/s
        ledger(out, rows, List.of(), 5.0);
        RunSummary s = RunSummary.read(RunOutput.of(out.toString(), "c"));
        double width = s.series.throughput.get(0)[0];
        double total = s.series.throughput.stream().mapToDouble(p -> p[1] * width).sum();
        assertThat(total).isCloseTo(400, within(1e-6));
        for (double[] p : s.series.throughput) { // flat, no spike at the start
            assertThat(p[1]).isCloseTo(400 / 3.0, within(1e-6));
        }
    }

    /** The JSON report only gains fields: readers of earlier reports keep working. */
    @Test
    void theJsonReportKeepsItsFieldsAndAddsTheTimeline() throws Exception {
        ledger(out, List.of(batch(0, 0, 10, 0, 500, 300), batch(1, 1, 10, 0, 500, 0)), List.of(), 3.0);
        RunOutput output = RunOutput.of(out.toString(), "c");
        io.github.flinkinfer.jobs.report.RunReports.write(RunSummary.read(output), output);
        com.fasterxml.jackson.databind.JsonNode json = new ObjectMapper().readTree(out.resolve("report-c.json").toFile());
        assertThat(json.fieldNames()).toIterable().contains("runId", "model", "succeeded", "failed",
                "errorsByReason", "batches", "realTokens", "paddedTokens", "paddingEfficiency", "wallSeconds",
                "itemsPerSecond", "realTokensPerSecond", "batchLatencyMs", "phaseTotalsMs", "cost", "quality",
                "series");
        assertThat(json.get("series").fieldNames()).toIterable().contains("throughput", "latencyHistogram",
                "paddingByBucket", "tokenLengthHistogram", "timeline");
        assertThat(json.at("/series/timeline/subtasks/0/modelLoads/0/1").asDouble()).isCloseTo(0.3, within(1e-9));
    }

    /** A rebuilt report (no driver wall) counts from the submission when run-info has it. */
    @Test
    void aRebuiltReportsWallTimeStartsAtTheSubmission() throws Exception {
        ledger(out, List.of(batch(0, 0, 10, 0, 500, 300), batch(1, 1, 10, 0, 500, 0)), List.of(), 0);
        RunOutput output = RunOutput.of(out.toString(), "c");
        assertThat(RunSummary.read(output).wallSeconds).isEqualTo(1.5); // first opening .. last batch end
        output.write(output.runInfo(), "{\"submittedAtMillis\": " + (1_000_000 - 2000) + "}");
        RunSummary rebuilt = RunSummary.read(output);
        assertThat(rebuilt.wallSeconds).isEqualTo(3.5);
        assertThat(rebuilt.series.timeline.fromSubmission).isTrue();
        assertThat(rebuilt.series.timeline.subtasks.get(0).openedAt).containsExactly(2.0);
    }
}
