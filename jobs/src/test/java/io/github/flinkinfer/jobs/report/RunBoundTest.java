package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.operators.BatchMetrics;
import io.github.flinkinfer.operators.ledger.RunLedger;
import org.junit.jupiter.api.Test;

/** The bound line from known phase totals: which stage a run waited on, by the documented rule. */
class RunBoundTest {
    /** One 1 s batch window per subtask (0 → 1000 ms), with these phase totals. */
    static BatchMetrics batch(int subtask, String device, double tokenize, double inference, double write) {
        BatchMetrics m = new BatchMetrics();
        m.subtask = subtask;
        m.subtasks = 2;
        m.device = device;
        m.startedAtMillis = 10_000;
        m.totalMs = 1000;
        m.items = 100;
        m.tokenizeMs = tokenize;
        m.inferenceMs = inference;
        m.writeMs = write;
        return m;
    }

    static RunLedger ledger(BatchMetrics... rows) {
        RunLedger l = new RunLedger();
        for (BatchMetrics m : rows) {
            l.addBatch(m);
        }
        return l;
    }

    @Test
    void aBusyModelBoundsTheRun() {
        RunBound b = RunBound.of(ledger(batch(0, "cpu", 50, 900, 20), batch(1, "cpu", 50, 880, 20)), 0);
        assertThat(b.devices()).isEqualTo(2); // on CPU each subtask is its own engine
        assertThat(b.deviceBusy()).isCloseTo(0.89, within(1e-9));
        assertThat(b.bound()).isEqualTo("device-bound");
        assertThat(b.line()).startsWith("device busy 89%: device-bound; tokenize 5%");
    }

    @Test
    void oneSharedGpuWaitingForItsTokenizerIsHostBoundByTokenize() {
        // two subtasks on cuda:0, tokenize in 1 subtask of its own: 950 ms of tokenizing in 1 s
        RunBound b = RunBound.of(ledger(batch(0, "cuda:0", 500, 200, 30), batch(1, "cuda:0", 450, 180, 30)), 1);
        assertThat(b.devices()).isEqualTo(1);
        assertThat(b.deviceBusy()).isCloseTo(0.38, within(1e-9));
        assertThat(b.hostLoads().get("tokenize")).isCloseTo(0.95, within(1e-9));
        assertThat(b.bound()).isEqualTo("host-bound (tokenize)");
        assertThat(b.line()).startsWith("device busy 38%: host-bound (tokenize)").contains("own subtasks");
    }

    @Test
    void aChainedThreadBusyWithEverythingIsHostBoundByItsLargestHostStage() {
        // per subtask: tokenize 200 + model 700 + write 40 = 94% of the thread, no stage at 25%
        RunBound b = RunBound.of(ledger(batch(0, "cuda:0", 200, 700, 40), batch(1, "cuda:1", 200, 700, 40)), 0);
        assertThat(b.hostLoads().values()).allMatch(load -> load < RunBound.HOST_BOUND);
        assertThat(b.hostBusy()).isLessThan(RunBound.HOST_BOUND);
        assertThat(b.devices()).isEqualTo(2);
        assertThat(b.threadBusy()).isCloseTo(0.94, within(1e-9));
        assertThat(b.bound()).isEqualTo("host-bound (tokenize)");
    }

    @Test
    void hostStagesSharingTheCoresTogetherBoundTheRun() {
        // 2 tokenize + 2 inference threads on 2 cores: no stage at 25%, the host threads 32% busy
        BatchMetrics a = batch(0, "cuda:0", 240, 100, 200);
        BatchMetrics b2 = batch(1, "cuda:0", 240, 100, 200);
        a.postprocessMs = 200;
        b2.postprocessMs = 200;
        RunBound b = RunBound.of(ledger(a, b2), 2);
        assertThat(b.hostLoads().values()).allMatch(load -> load < RunBound.HOST_BOUND);
        assertThat(b.hostBusy()).isCloseTo(0.32, within(1e-9));
        assertThat(b.bound()).isEqualTo("host-bound (tokenize)");
    }

    @Test
    void nothingBusyFromTokenizeOnPointsUpstream() {
        RunBound b = RunBound.of(ledger(batch(0, "cuda:0", 100, 200, 20), batch(1, "cuda:1", 100, 200, 20)), 2);
        assertThat(b.hostBusy()).isLessThan(RunBound.HOST_BOUND);
        assertThat(b.bound()).startsWith("upstream-bound");
    }

    @Test
    void aRunWithoutBatchesSaysSo() {
        assertThat(RunBound.of(new RunLedger(), 0).bound()).isEqualTo("no batches");
    }
}
