package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.operators.ledger.RunLedger;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
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
    void aChainedCpuThreadBusyMostlyInTheModelIsDeviceBound() {
        // per subtask on the CPU: tokenize 20 + model 730 + write 130 = 88% of the thread, as 16
        // MiniLM subtasks on 2 cores measured: the thread is the engine, and the model takes most of it
        RunBound b = RunBound.of(ledger(batch(0, "cpu", 20, 730, 130), batch(1, "cpu", 20, 730, 130)), 0);
        assertThat(b.deviceBusy()).isLessThan(RunBound.DEVICE_BOUND);
        assertThat(b.threadBusy()).isCloseTo(0.88, within(1e-9));
        assertThat(b.bound()).isEqualTo(RunBound.CPU_MODEL_BOUND);
        assertThat(b.line()).startsWith("device busy 73%: device-bound (CPU:");

        // the same thread mostly in host stages stays host-bound by the largest
        RunBound host = RunBound.of(ledger(batch(0, "cpu", 100, 300, 500), batch(1, "cpu", 100, 300, 500)), 0);
        assertThat(host.threadBusy()).isCloseTo(0.9, within(1e-9));
        assertThat(host.bound()).isEqualTo("host-bound (write)");
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
        // two 300 ms batches per subtask in a 1 s window: the subtasks waited for input 40% of it
        BatchMetrics a = batch(0, "cuda:0", 50, 100, 10);
        BatchMetrics a2 = batch(0, "cuda:0", 50, 100, 10);
        BatchMetrics b2 = batch(1, "cuda:1", 50, 100, 10);
        BatchMetrics b3 = batch(1, "cuda:1", 50, 100, 10);
        a.totalMs = a2.totalMs = b2.totalMs = b3.totalMs = 300;
        a2.startedAtMillis = b3.startedAtMillis = 10_700;
        RunBound b = RunBound.of(ledger(a, a2, b2, b3), 2);
        assertThat(b.hostBusy()).isLessThan(RunBound.HOST_BOUND);
        assertThat(b.inBatches()).isCloseTo(0.6, within(1e-9));
        assertThat(b.bound()).startsWith("upstream-bound");
    }

    @Test
    void subtasksAlwaysInABatchWaitOnTheCallNotUpstream() {
        // the simulated device at 400k tokens/s: two subtasks share one device's stream, every
        // batch's wall is mostly the wait for the other's call (in no phase), nothing is input-starved
        RunBound b = RunBound.of(ledger(batch(0, "cuda:0", 50, 370, 20), batch(1, "cuda:0", 50, 370, 20)), 0);
        assertThat(b.deviceBusy()).isLessThan(RunBound.DEVICE_BOUND);
        assertThat(b.inBatches()).isEqualTo(1.0);
        assertThat(b.bound()).startsWith("call-bound");
        assertThat(b.line()).contains("; in batches 100%");
    }

    /** {@code m} ended when its TaskManager {@code process} (2 cores) had used {@code cpuMs} of CPU. */
    static BatchMetrics sampled(BatchMetrics m, String process, long cpuMs) {
        m.process = process;
        m.processCores = 2;
        m.processCpuMs = cpuMs;
        return m;
    }

    @Test
    void aTaskManagerWhoseCoresAreBusyOutsideTheStagesIsHostBoundByCpu() {
        // the simulated device at 400k tokens/s on 2 cores: every stage looks idle, the device
        // waits, and the process used 3.4 of the 4 core-seconds between the batch ends it sampled
        BatchMetrics a1 = sampled(batch(0, "cuda:0", 50, 380, 20), "1@tm", 1_000);
        BatchMetrics a2 = sampled(batch(0, "cuda:0", 50, 380, 20), "1@tm", 4_400);
        a2.startedAtMillis = 12_000; // ends at 13,000: 2 s after a1's end
        BatchMetrics b = sampled(batch(1, "cuda:0", 50, 380, 20), "1@tm", 2_000);
        RunBound bound = RunBound.of(ledger(a1, a2, b), 0);
        assertThat(bound.hostBusy()).isLessThan(RunBound.HOST_BOUND);
        assertThat(bound.processCpu()).isCloseTo(3_400 / (2_000.0 * 2), within(1e-9));
        assertThat(bound.bound()).isEqualTo("host-bound (CPU: the TaskManager's cores are busy outside the timed stages)");
        assertThat(bound.line()).contains("; TaskManager CPU 85% of 2 cores over the");

        // the same run on a TaskManager with idle cores, subtasks waiting for input: upstream
        a2.processCpuMs = 2_000;
        a1.totalMs = a2.totalMs = b.totalMs = 200;
        a1.startedAtMillis = b.startedAtMillis = 10_800; // a1 and b end at 11,000 as before
        a2.startedAtMillis = 12_800; // and a2 at 13,000
        RunBound idle = RunBound.of(ledger(a1, a2, b), 0);
        assertThat(idle.processCpu()).isCloseTo(0.25, within(1e-9));
        assertThat(idle.bound()).startsWith("upstream-bound");
    }

    @Test
    void theBusiestTaskManagerCounts() {
        BatchMetrics tm1 = sampled(batch(0, "cuda:0", 50, 300, 20), "1@a", 0);
        BatchMetrics tm1Later = sampled(batch(0, "cuda:0", 50, 300, 20), "1@a", 1_900);
        tm1Later.startedAtMillis = 11_000;
        BatchMetrics tm2 = sampled(batch(1, "cuda:1", 50, 300, 20), "2@b", 0);
        BatchMetrics tm2Later = sampled(batch(1, "cuda:1", 50, 300, 20), "2@b", 400);
        tm2Later.startedAtMillis = 11_000;
        RunBound bound = RunBound.of(ledger(tm1, tm1Later, tm2, tm2Later), 0);
        assertThat(bound.processCpu()).isCloseTo(0.95, within(1e-9));
        assertThat(bound.processCores()).isEqualTo(2);
    }

    @Test
    void withoutCpuSamplesTheLineSaysNothingOfIt() {
        RunBound b = RunBound.of(ledger(batch(0, "cpu", 50, 900, 20)), 0);
        assertThat(b.processCpu()).isEqualTo(-1);
        assertThat(b.line()).doesNotContain("TaskManager CPU");
    }

    @Test
    void aRunWithoutBatchesSaysSo() {
        assertThat(RunBound.of(new RunLedger(), 0).bound()).isEqualTo("no batches");
    }
}
