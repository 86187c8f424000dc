package io.github.flinkinfer.operators.dedupe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The duplicate-id policy inside Flink's keyed operator test harness: which record is kept in
 * each runtime mode, what the rejected ones look like, and that the kept state survives a
 * snapshot and restore (nothing emitted twice, nothing lost).
 */
class DeduplicateFunctionTest {

    /** An opened harness, restored from {@code snapshot} first unless it is null. */
    static KeyedOneInputStreamOperatorTestHarness<String, Document, Document> opened(boolean batchMode,
            OperatorSubtaskState snapshot) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<String, Document, Document>(
                new KeyedProcessOperator<>(new DeduplicateFunction(batchMode)), d -> d.id, Types.STRING);
        if (snapshot != null) {
            h.initializeState(snapshot);
        }
        h.open();
        return h;
    }

    static List<String> kept(KeyedOneInputStreamOperatorTestHarness<String, Document, Document> h) {
        return h.extractOutputValues().stream().map(d -> d.id + "@" + d.source).toList();
    }

    static List<ErrorRecord> rejected(KeyedOneInputStreamOperatorTestHarness<String, Document, Document> h) {
        return h.getSideOutput(Outputs.ERRORS) == null ? List.of()
                : h.getSideOutput(Outputs.ERRORS).stream().map(StreamRecord::getValue).toList();
    }

    @Test
    void batchModeKeepsTheFirstInTheCorpusAcrossSnapshotAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = opened(true, null)) {
            h.processElement(new Document("a", "late", "f:10"), 0);
            h.processElement(new Document("a", "earlier", "f:9"), 0); // 9 < 10 numerically
            h.processElement(new Document("b", "only", "f:1"), 0);
            h.processElement(new Document("a", "other file", "g:1"), 0);
            assertThat(h.extractOutputValues()).isEmpty(); // held until the key ends
            assertThat(rejected(h)).extracting(e -> e.source).containsExactly("f:10", "g:1");
            assertThat(rejected(h)).allSatisfy(e -> {
                assertThat(e.id).isEqualTo("a");
                assertThat(e.stage).isEqualTo(ErrorRecord.PARSE);
                assertThat(e.reason).isEqualTo("duplicate_id");
                assertThat(e.message).isEqualTo("the record at f:9 has the same id and is kept");
            });
            snapshot = h.snapshot(1, 1);
        }
        try (var h = opened(true, snapshot)) {
            h.processElement(new Document("a", "first of all", "f:2"), 0);
            h.processWatermark(Long.MAX_VALUE);

            assertThat(kept(h)).containsExactlyInAnyOrder("a@f:2", "b@f:1");
            assertThat(h.extractOutputValues()).filteredOn(d -> d.id.equals("a"))
                    .singleElement().satisfies(d -> assertThat(d.text).isEqualTo("first of all"));
            assertThat(rejected(h)).singleElement().satisfies(e -> {
                assertThat(e.source).isEqualTo("f:9");
                assertThat(e.message).isEqualTo("the record at f:2 has the same id and is kept");
            });
        }
    }

    @Test
    void streamingModeEmitsTheFirstArrivalAtOnceAndStillRejectsItsDuplicatesAfterRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = opened(false, null)) {
            h.processElement(new Document("a", "first", "f:10"), 0);
            h.processElement(new Document("a", "second", "f:9"), 0);
            assertThat(kept(h)).containsExactly("a@f:10");
            assertThat(h.extractOutputValues().get(0).text).isEqualTo("first");
            assertThat(rejected(h)).extracting(e -> e.source).containsExactly("f:9");
            snapshot = h.snapshot(1, 1);
        }
        try (var h = opened(false, snapshot)) {
            h.processElement(new Document("a", "third", "f:1"), 0);
            h.processElement(new Document("b", "new", "f:3"), 0);
            h.processWatermark(Long.MAX_VALUE);

            assertThat(kept(h)).containsExactly("b@f:3");
            assertThat(rejected(h)).singleElement().satisfies(e -> {
                assertThat(e.id).isEqualTo("a");
                assertThat(e.source).isEqualTo("f:1");
                assertThat(e.message).isEqualTo("the record at f:10 has the same id and is kept");
            });
        }
    }

    @Test
    void positionsCompareByFileThenLineNumber() {
        assertThat(DeduplicateFunction.comparePositions("f:9", "f:10")).isNegative();
        assertThat(DeduplicateFunction.comparePositions("f:10", "g:1")).isNegative();
        assertThat(DeduplicateFunction.comparePositions("s3://b/x.jsonl:2", "s3://b/x.jsonl:2")).isZero();
    }

    @Test
    void byteOffsetPositionsCompareByFileThenOffset() {
        assertThat(DeduplicateFunction.comparePositions("file:/a.jsonl@99", "file:/a.jsonl@100")).isNegative();
        assertThat(DeduplicateFunction.comparePositions("file:/a.jsonl@100", "file:/b.jsonl@0")).isNegative();
        assertThat(DeduplicateFunction.comparePositions("s3://b/me@x/a.jsonl@7", "s3://b/me@x/a.jsonl@12")).isNegative();
        assertThat(DeduplicateFunction.comparePositions("file:/a.jsonl@3", "file:/a.jsonl@3")).isZero();
    }
}
