package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.operators.metrics.BatchMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The run's time line from known submission, open, load and batch times. */
class TimelineTest {
    static final long SUBMITTED = 1_000_000;

    static BatchMetrics batch(int subtask, long openedAfter, long loadMs, long startAfter, double totalMs, int items) {
        BatchMetrics m = new BatchMetrics();
        m.subtask = subtask;
        m.subtaskOpenedAtMillis = SUBMITTED + openedAfter;
        m.modelLoadMs = loadMs;
        m.startedAtMillis = SUBMITTED + startAfter;
        m.totalMs = totalMs;
        m.items = items;
        return m;
    }

    /** The ledger the job would have tallied from these batch rows. */
    static io.github.flinkinfer.operators.ledger.RunLedger ledger(List<BatchMetrics> rows) {
        io.github.flinkinfer.operators.ledger.RunLedger l = new io.github.flinkinfer.operators.ledger.RunLedger();
        rows.forEach(l::addBatch);
        return l;
    }

    @Test
    void lanesStartAtSubmissionAndShowLoadBatchesAndTheStraggler() {
        List<BatchMetrics> rows = List.of(
                batch(0, 1000, 500, 2000, 500, 10),
                batch(0, 1000, 0, 2501, 499, 10), // 1 ms after the first: merged (resolution 2.5 ms)
                batch(0, 1000, 0, 3500, 100, 5),
                batch(1, 1200, 800, 2100, 1900, 20)); // the straggler, ends at 4 s
        Timeline t = Timeline.of(ledger(rows), SUBMITTED, 5.0);

        assertThat(t.fromSubmission).isTrue();
        assertThat(t.startMillis).isEqualTo(SUBMITTED);
        assertThat(t.endSeconds).isEqualTo(5.0); // the driver's wall, past the last batch
        Timeline.Lane first = t.subtasks.get(0);
        assertThat(first.openedAt).containsExactly(1.0);
        assertThat(first.modelLoads).containsExactly(new double[] {1.0, 1.5});
        assertThat(first.batches).hasSize(2);
        assertThat(first.batches.get(0)).containsExactly(new double[] {2.0, 3.0, 20}, within(1e-9));
        assertThat(first.batches.get(1)).containsExactly(new double[] {3.5, 3.6, 5}, within(1e-9));
        assertThat(first.batchCount).isEqualTo(3);
        assertThat(first.items).isEqualTo(25);
        assertThat(first.busySeconds).isCloseTo(1.099, within(1e-9));
        Timeline.Lane second = t.subtasks.get(1);
        assertThat(second.modelLoads).containsExactly(new double[] {1.2, 2.0});
        assertThat(second.lastBatchEnd).isCloseTo(4.0, within(1e-9));
        double width = t.throughput.get(0)[0];
        assertThat(t.throughput).hasSize(Timeline.THROUGHPUT_BINS);
        assertThat(t.throughput.get(Timeline.THROUGHPUT_BINS - 1)[0]).isCloseTo(5.0, within(1e-9));
        assertThat(t.throughput.stream().mapToDouble(p -> p[1] * width).sum()).isCloseTo(45, within(1e-6));
        assertThat(t.throughput.get(0)[1]).as("start-up: nothing produced").isZero();
    }

    @Test
    void lanesCarryTheLoadPhasesAndTheFirstBatchOfTheRun() {
        BatchMetrics first = batch(0, 1000, 500, 2000, 500, 10);
        first.modelReadMs = 100;
        first.sessionCreateMs = 350;
        first.warmUpMs = 40;
        first.tokenizerLoadMs = 120;
        first.graphCache = "hit";
        List<BatchMetrics> rows = List.of(first, batch(0, 1000, 0, 2600, 100, 5),
                batch(1, 1200, 800, 2300, 100, 5));
        Timeline t = Timeline.of(ledger(rows), SUBMITTED, 5.0);

        assertThat(t.firstBatchSeconds).isEqualTo(2.0);
        assertThat(t.lastBatchSeconds).as("subtask 0's batch at 2.6 s, 100 ms long").isCloseTo(2.7, within(1e-9));
        assertThat(t.endSeconds).as("the driver's wall: the tail after the last batch is 2.3 s").isEqualTo(5.0);
        Timeline.Lane lane = t.subtasks.get(0);
        assertThat(lane.modelReadSeconds).isEqualTo(0.1);
        assertThat(lane.sessionCreateSeconds).isEqualTo(0.35);
        assertThat(lane.warmUpSeconds).isEqualTo(0.04);
        assertThat(lane.tokenizerLoadSeconds).isEqualTo(0.12);
        assertThat(lane.graphCache).isEqualTo("hit");
        assertThat(lane.firstBatchStart).isEqualTo(2.0);
        assertThat(t.subtasks.get(1).firstBatchStart).isEqualTo(2.3);
        assertThat(t.subtasks.get(1).graphCache).isNull();
    }

    @Test
    void theFirstInputSplitsTheColdStartIntoWaitingForInputAndFillingABatch() {
        BatchMetrics a = batch(0, 1000, 500, 2500, 100, 10);
        a.firstInputAtMillis = SUBMITTED + 1900;
        BatchMetrics b = batch(1, 1000, 500, 2200, 100, 10);
        b.firstInputAtMillis = SUBMITTED + 1600;
        BatchMetrics later = batch(1, 1000, 0, 2400, 100, 10); // reported once per subtask: 0 here
        // partial ledgers, as the tallies hand them on (JSON), merged by the run ledger
        io.github.flinkinfer.operators.ledger.RunLedger merged = ledger(List.of(a));
        merged.merge(io.github.flinkinfer.operators.ledger.RunLedger.fromJson(ledger(List.of(b)).toJson()));
        merged.merge(io.github.flinkinfer.operators.ledger.RunLedger.fromJson(ledger(List.of(later)).toJson()));
        Timeline t = Timeline.of(merged, SUBMITTED, 5.0);

        assertThat(t.subtasks.get(0).firstInputAt).isCloseTo(1.9, within(1e-9));
        assertThat(t.subtasks.get(1).firstInputAt).isCloseTo(1.6, within(1e-9));
        assertThat(t.firstInputSeconds).as("the earliest subtask's").isCloseTo(1.6, within(1e-9));
        assertThat(t.firstBatchSeconds).isEqualTo(2.2);

        Timeline older = Timeline.of(ledger(List.of(batch(0, 1000, 500, 2000, 500, 10))), SUBMITTED, 5.0);
        assertThat(older.firstInputSeconds).as("a ledger from before the field").isNull();
        assertThat(older.subtasks.get(0).firstInputAt).isNull();
    }

    @Test
    void withoutASubmissionTimeTheAxisStartsWhenTheFirstSubtaskOpened() {
        Timeline t = Timeline.of(ledger(List.of(batch(0, 1000, 500, 2000, 500, 10))), 0, 0);
        assertThat(t.fromSubmission).isFalse();
        assertThat(t.startMillis).isEqualTo(SUBMITTED + 1000);
        assertThat(t.endSeconds).isEqualTo(1.5);
        assertThat(t.subtasks.get(0).openedAt).containsExactly(0.0);
    }
}
