package io.github.flinkinfer.operators.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.QualitySample;
import io.github.flinkinfer.operators.run.BatchInferenceOperator.Overlap;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.externalresource.ExternalResourceInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator inside Flink's operator test harness, around the real fp32 model (batch-invariant,
 * so vectors compare with the model run alone): every input out exactly once across snapshot and
 * restore, in the batcher's order, flushed at end of input or by the max-wait timer, and split
 * on out-of-memory.
 */
class BatchInferenceOperatorTest {
    static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2");
    /** A session per load (not the shared default), so each harness's subtask loads the model and reports it. */
    static final ModelRuntimeFactory MODEL = ModelRuntimeFactory.onnx(CARD, RuntimeOptions.defaults().withShareSession(false));
    static final String RUN = "r-1";
    static final int[] ONE_BUCKET = {512};
    static TextTokenizer tokenizer;
    static ModelRuntime alone;

    @BeforeAll
    static void load() {
        tokenizer = TextTokenizer.load(CARD, RuntimeOptions.defaults());
        alone = MODEL.open(Device.CPU);
    }

    @AfterAll
    static void close() {
        alone.close();
        tokenizer.close();
    }

    /** One length bucket; a bucket flushes once it holds {@code lookahead} batches of {@code rows}. */
    static BatchingConfig batching(int rows, int lookahead, long maxWaitMillis) {
        return new BatchingConfig(ONE_BUCKET, 2048, rows, 64, lookahead, maxWaitMillis);
    }

    static OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> harness(
            ModelRuntimeFactory model, BatchingConfig batching, Overlap overlap) throws Exception {
        return new OneInputStreamOperatorTestHarness<>(
                BatchInferenceOperator.builder(model, batching, RUN).overlap(overlap).build());
    }

    /** Documents of growing, then shrinking length, so sorting inside a batch shows. */
    static List<TokenizedDocument> docs(int n) {
        List<TokenizedDocument> docs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = "word ".repeat(1 + (i * 7) % 11) + "number " + i;
            TokenizedText t = tokenizer.encode(text);
            docs.add(new TokenizedDocument("d" + i, "f:" + (i + 1), t.ids(), t.originalTokenCount(), 1000));
        }
        return docs;
    }

    /** The ids in the order the batcher alone cuts them: the order the operator must emit. */
    static List<String> batchOrder(List<TokenizedDocument> docs, BatchingConfig batching) {
        LengthBucketBatcher<TokenizedDocument> b = new LengthBucketBatcher<>(batching, TokenizedDocument::tokenCount);
        List<String> ids = new ArrayList<>();
        for (TokenizedDocument d : docs) {
            b.add(d, 0).forEach(batch -> batch.items().forEach(x -> ids.add(x.id)));
        }
        for (Batch<TokenizedDocument> batch : b.flushAll()) {
            batch.items().forEach(x -> ids.add(x.id));
        }
        return ids;
    }

    static List<String> ids(OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> h) {
        return h.extractOutputValues().stream().map(r -> r.id).toList();
    }

    static List<BatchMetrics> metrics(OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> h) {
        return h.getSideOutput(Outputs.BATCH_METRICS) == null ? List.of()
                : h.getSideOutput(Outputs.BATCH_METRICS).stream().map(StreamRecord::getValue).toList();
    }

    static List<ErrorRecord> errors(OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> h) {
        return h.getSideOutput(Outputs.ERRORS) == null ? List.of()
                : h.getSideOutput(Outputs.ERRORS).stream().map(StreamRecord::getValue).toList();
    }

    static void feed(OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult> h,
            List<TokenizedDocument> docs) throws Exception {
        for (TokenizedDocument d : docs) {
            h.processElement(d, 0);
        }
    }

    /** Each result carries the model's vector for its own input, as if run alone. */
    static void assertVectorsAreTheModels(List<InferenceResult> results, List<TokenizedDocument> docs) {
        for (InferenceResult r : results) {
            TokenizedDocument d = docs.stream().filter(x -> x.id.equals(r.id)).findFirst().orElseThrow();
            assertThat(r.vector).containsExactly(alone.infer(List.of(d.tokenIds)).vectors()[0], Offset.offset(1e-4f));
            assertThat(r.source).isEqualTo(d.source);
            assertThat(r.tokenCount).isEqualTo(d.tokenIds.length);
            assertThat(r.model).isEqualTo(CARD.name);
        }
    }

    @Test
    void emitsEveryInputOnceInBatchOrderWithOneMetricsRecordPerBatch() throws Exception {
        List<TokenizedDocument> docs = docs(10);
        BatchingConfig batching = batching(3, 1, 0);
        try (var h = harness(MODEL, batching, Overlap.OFF)) {
            h.open();
            feed(h, docs);
            h.endInput();

            assertThat(ids(h)).isEqualTo(batchOrder(docs, batching)).hasSize(10).doesNotHaveDuplicates();
            assertVectorsAreTheModels(h.extractOutputValues(), docs);
            List<BatchMetrics> m = metrics(h);
            assertThat(m).extracting(x -> x.batchId).containsExactly("r-1-0-0", "r-1-0-1", "r-1-0-2", "r-1-0-3");
            assertThat(m).extracting(x -> x.items).containsExactly(3, 3, 3, 1);
            assertThat(m).allSatisfy(x -> {
                assertThat(x.runId).isEqualTo(RUN);
                assertThat(x.subtasks).isEqualTo(1);
                assertThat(x.device).isEqualTo("cpu");
                assertThat(x.retries).isZero();
                assertThat(x.failedItems).isZero();
                assertThat(x.qualityChecked).isZero();
            });
            assertThat(m.get(0).modelLoadMs).isPositive();
            assertThat(m.subList(1, 4)).extracting(x -> x.modelLoadMs).containsOnly(0L);
            assertThat(m.get(0).firstInputAtMillis).as("first input: after opening, before the first batch")
                    .isBetween(m.get(0).subtaskOpenedAtMillis, m.get(0).startedAtMillis);
            assertThat(m.subList(1, 4)).extracting(x -> x.firstInputAtMillis).containsOnly(0L);
            BatchMetrics first = m.get(0);
            assertThat(first.sessionCreateMs).isPositive();
            assertThat(first.modelReadMs + first.sessionCreateMs + first.warmUpMs)
                    .as("the phases are parts of the load").isLessThanOrEqualTo(first.modelLoadMs);
            assertThat(m.subList(1, 4)).extracting(x -> x.sessionCreateMs).containsOnly(0L);
            assertThat(m).extracting(x -> x.graphCache).doesNotContainNull();
            assertThat(m.stream().mapToLong(x -> x.realTokens).sum())
                    .isEqualTo(docs.stream().mapToLong(TokenizedDocument::tokenCount).sum());
            assertThat(errors(h)).isEmpty();
        }
    }

    /**
     * A TaskManager with two GPUs that Flink gave subtasks 0 and 2 of 4 (seen on a real cluster,
     * StandaloneGpuDiscoveryITCase): they ask for different GPUs (the subtask index modulo the
     * GPUs asked both for the first), and a third subtask there takes the first GPU again.
     */
    @Test
    void subtasksOfOneTaskManagerAskForItsGpusInTurn() throws Exception {
        Set<ExternalResourceInfo> gpus = Set.of(new DevicePlacementTest.Gpu("1"), new DevicePlacementTest.Gpu("0"));
        ModelRuntimeFactory auto = ModelRuntimeFactory.onnx(CARD, RuntimeOptions.defaults()
                .withDevice(Device.parse("auto")).withShareSession(false));
        List<TokenizedDocument> docs = docs(2);
        List<OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult>> subtasks = new ArrayList<>();
        try {
            for (int index : new int[] {0, 2, 3}) {
                MockEnvironment taskManager = new MockEnvironmentBuilder().setParallelism(4)
                        .setMaxParallelism(128).setSubtaskIndex(index)
                        .setExternalResourceInfoProvider(name -> name.equals(DevicePlacement.GPU_RESOURCE) ? gpus : Set.of())
                        .build();
                var h = new OneInputStreamOperatorTestHarness<>(
                        BatchInferenceOperator.builder(auto, batching(2, 1, 0), RUN).build(), taskManager);
                h.open();
                subtasks.add(h);
            }
            List<String> requested = new ArrayList<>();
            for (var h : subtasks) {
                feed(h, docs);
                h.endInput();
                assertThat(h.extractOutputValues()).hasSize(2);
                requested.add(metrics(h).get(0).deviceRequested);
            }
            assertThat(requested).containsExactly("auto:0", "auto:1", "auto:0");
        } finally {
            for (var h : subtasks) {
                h.close();
            }
        }
    }

    @Test
    void overlappedModelCallsEmitTheSameSequenceAsPlainOnes() throws Exception {
        List<TokenizedDocument> docs = docs(13);
        BatchingConfig batching = batching(2, 1, 0);
        List<String> plain;
        try (var h = harness(MODEL, batching, Overlap.OFF)) {
            h.open();
            feed(h, docs);
            h.endInput();
            plain = ids(h);
        }
        try (var h = harness(MODEL, batching, Overlap.ON)) {
            h.open();
            feed(h, docs);
            h.endInput();

            assertThat(ids(h)).isEqualTo(plain).isEqualTo(batchOrder(docs, batching));
            assertVectorsAreTheModels(h.extractOutputValues(), docs);
            assertThat(metrics(h)).extracting(x -> x.batchId)
                    .containsExactly("r-1-0-0", "r-1-0-1", "r-1-0-2", "r-1-0-3", "r-1-0-4", "r-1-0-5", "r-1-0-6");
        }
    }

    @Test
    void endOfInputFlushesWhatIsBuffered() throws Exception {
        List<TokenizedDocument> docs = docs(5);
        try (var h = harness(MODEL, batching(4, 4, 0), Overlap.OFF)) {
            h.open();
            feed(h, docs);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(metrics(h)).isEmpty();

            h.endInput();
            assertThat(ids(h)).containsExactlyInAnyOrder("d0", "d1", "d2", "d3", "d4");
            assertThat(metrics(h)).extracting(x -> x.items).containsExactly(4, 1);
        }
    }

    @Test
    void snapshotWithItemsBufferedRestoresThemExactlyOnce() throws Exception {
        List<TokenizedDocument> docs = docs(8);
        BatchingConfig batching = batching(4, 4, 0); // nothing flushes before end of input
        OperatorSubtaskState snapshot;
        try (var h = harness(MODEL, batching, Overlap.OFF)) {
            h.open();
            feed(h, docs.subList(0, 6));
            h.prepareSnapshotPreBarrier(1);
            snapshot = h.snapshot(1, 1);
            assertThat(h.extractOutputValues()).isEmpty();
        }
        try (var h = harness(MODEL, batching, Overlap.OFF)) {
            h.initializeState(snapshot);
            h.open();
            feed(h, docs.subList(6, 8));
            h.endInput();

            assertThat(ids(h)).containsExactlyInAnyOrder("d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7");
            assertVectorsAreTheModels(h.extractOutputValues(), docs);
        }
    }

    @Test
    void overlappedBatchesAreDrainedBeforeTheBarrierAndOnlyBufferedItemsAreRestored() throws Exception {
        List<TokenizedDocument> docs = docs(7);
        BatchingConfig batching = batching(2, 1, 0); // a batch every 2 items: 3 run, 1 buffered
        OperatorSubtaskState snapshot;
        List<String> beforeBarrier;
        try (var h = harness(MODEL, batching, Overlap.ON)) {
            h.open();
            feed(h, docs);
            h.prepareSnapshotPreBarrier(1);
            snapshot = h.snapshot(1, 1);
            beforeBarrier = ids(h);
            assertThat(beforeBarrier).hasSize(6);
            assertThat(metrics(h)).hasSize(3);
        }
        try (var h = harness(MODEL, batching, Overlap.ON)) {
            h.initializeState(snapshot);
            h.open();
            h.endInput();

            List<String> all = new ArrayList<>(beforeBarrier);
            all.addAll(ids(h));
            assertThat(all).isEqualTo(batchOrder(docs, batching)).doesNotHaveDuplicates();
        }
    }

    @Test
    void maxWaitTimerFlushesABucketOnceItsOldestItemWaitedLongEnough() throws Exception {
        try (var h = harness(MODEL, batching(4, 4, 1000), Overlap.OFF)) {
            h.open();
            h.processElement(docs(1).get(0), 0);
            h.setProcessingTime(500); // the timer fires, but the item has not waited 1 s yet
            assertThat(h.extractOutputValues()).isEmpty();

            Thread.sleep(1100);
            assertThat(h.extractOutputValues()).isEmpty(); // only the timer flushes
            h.setProcessingTime(1000);
            assertThat(ids(h)).containsExactly("d0");
            assertThat(metrics(h)).singleElement().satisfies(m -> assertThat(m.queueWaitMs).isGreaterThanOrEqualTo(1000));
        }
    }

    @Test
    void outOfMemoryBatchesAreSplitUntilTheyFitAndNothingIsLost() throws Exception {
        List<TokenizedDocument> docs = docs(8);
        BatchingConfig batching = batching(8, 1, 0);
        try (var h = harness(new RowLimitModel(MODEL, 2), batching, Overlap.OFF)) {
            h.open();
            feed(h, docs);
            h.endInput();

            assertThat(ids(h)).isEqualTo(batchOrder(docs, batching)).hasSize(8);
            assertVectorsAreTheModels(h.extractOutputValues(), docs);
            assertThat(errors(h)).isEmpty();
            // 8 rows fail, both 4s fail, the four 2s run: 7 runs, 6 of them retries
            assertThat(metrics(h)).singleElement().satisfies(m -> {
                assertThat(m.items).isEqualTo(8);
                assertThat(m.retries).isEqualTo(6);
            });
        }
    }

    @Test
    void anInputThatRunsOutOfMemoryAloneBecomesAnErrorRecord() throws Exception {
        try (var h = harness(new RowLimitModel(MODEL, 0), batching(2, 1, 0), Overlap.OFF)) {
            h.open();
            feed(h, docs(2));
            h.endInput();

            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(errors(h)).extracting(e -> e.id).containsExactlyInAnyOrder("d0", "d1");
            assertThat(errors(h)).allSatisfy(e -> {
                assertThat(e.stage).isEqualTo(ErrorRecord.INFER);
                assertThat(e.reason).isEqualTo("out_of_memory");
                assertThat(e.attempt).isEqualTo(2);
            });
            assertThat(metrics(h)).singleElement().satisfies(m -> assertThat(m.failedItems).isEqualTo(2));
        }
    }

    @Test
    void qualitySampleChecksItsShareAgainstTheReference() throws Exception {
        var op = BatchInferenceOperator.builder(MODEL, batching(2, 1, 0), RUN)
                .qualityGate(new QualityGate(MODEL, 3)).overlap(Overlap.OFF).build();
        try (var h = new OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult>(op)) {
            h.open();
            feed(h, docs(6));
            h.endInput();

            List<BatchMetrics> m = metrics(h);
            assertThat(m).extracting(x -> x.qualityChecked).containsExactly(2, 1, 0); // net change; fills at 3
            assertThat(m).allSatisfy(x -> {
                assertThat(x.qualityMetric).isEqualTo("cosine");
                assertThat(x.qualityMin).isCloseTo(1.0, Offset.offset(1e-4));
                assertThat(x.qualitySeed).isEqualTo(QualityGate.DEFAULT_SEED);
            });
            assertThat(m).extracting(x -> x.qualitySeen).containsExactly(2L, 4L, 6L);
        }
    }

    /**
     * The sample is a reservoir over all the subtask's items: of 60 items the 4 kept are those of
     * lowest priority (not the first 4), evicted items leave the rows' sums, and the sample
     * survives a snapshot and restore (the restored operator goes on from it).
     */
    @Test
    void qualitySampleIsAReservoirOverTheWholeSubtask() throws Exception {
        QualityGate gate = new QualityGate(MODEL, 4, 11);
        List<TokenizedDocument> docs = docs(60);
        List<BatchMetrics> rows = new ArrayList<>();
        OperatorSubtaskState snapshot;
        try (var h = new OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult>(
                BatchInferenceOperator.builder(MODEL, batching(4, 1, 0), RUN).qualityGate(gate).overlap(Overlap.OFF).build())) {
            h.open();
            feed(h, docs.subList(0, 32));
            snapshot = h.snapshot(1, 0);
            rows.addAll(metrics(h));
        }
        try (var h = new OneInputStreamOperatorTestHarness<TokenizedDocument, InferenceResult>(
                BatchInferenceOperator.builder(MODEL, batching(4, 1, 0), RUN).qualityGate(gate).overlap(Overlap.OFF).build())) {
            h.initializeState(snapshot);
            h.open();
            feed(h, docs.subList(32, 60));
            h.endInput();
            rows.addAll(metrics(h));
        }
        io.github.flinkinfer.operators.ledger.RunLedger totals = new io.github.flinkinfer.operators.ledger.RunLedger();
        rows.forEach(totals::addBatch); // as the job's ledger adds them up
        assertThat(totals.quality.checked).isEqualTo(4);
        assertThat(totals.quality.metric).isEqualTo("cosine");
        assertThat(totals.quality.sum / totals.quality.checked).isCloseTo(1.0, Offset.offset(1e-4));
        assertThat(totals.qualityMin()).isCloseTo(1.0, Offset.offset(1e-4));
        assertThat(rows.stream().mapToInt(x -> x.qualityReferenceRuns).sum()).isGreaterThan(4); // evictions happened
        assertThat(rows.get(rows.size() - 1).qualitySeen).isEqualTo(60);
        // the kept items are the 4 of lowest priority among all 60, wherever they came
        QualitySample probe = QualitySample.empty(11, 4);
        List<Long> priorities = docs.stream().map(d -> probe.priority(d.id)).sorted().toList();
        long fourth = priorities.get(3);
        List<Integer> keptPositions = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) {
            if (probe.priority(docs.get(i).id) <= fourth) {
                keptPositions.add(i);
            }
        }
        assertThat(keptPositions).hasSize(4).isNotEqualTo(List.of(0, 1, 2, 3));
    }
}
