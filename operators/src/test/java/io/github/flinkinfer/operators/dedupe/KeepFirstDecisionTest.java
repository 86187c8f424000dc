package io.github.flinkinfer.operators.dedupe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Keep-first after inference in Flink's harnesses: the ids pass ({@link KeepFirstDecision},
 * keyed, on marks only, which BATCH hands it sorted by key: {@link #sortedByKey}) and the result and error-row filters ({@link DuplicateOutcomeFilter}, the
 * dropped positions broadcast to them). The document with the smallest position keeps its outcome
 * (a result or an error row) whatever order the marks and outcomes arrive in, each other document
 * becomes one duplicate_id row as the dedupe before tokenization wrote it, and the dropped
 * outcomes are handed to the ledger.
 */
class KeepFirstDecisionTest {

    static KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, String> opened() throws Exception {
        return opened(new KeepFirstDecision.IdKey());
    }

    static KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, String> opened(
            KeySelector<DocumentOutcome, Long> key) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, String>(
                new KeepFirstDecision(), key, Types.LONG);
        h.open();
        return h;
    }

    static InferenceResult result(String id, String source) {
        InferenceResult r = new InferenceResult();
        r.id = id;
        r.source = source;
        r.vector = new float[] {1f};
        return r;
    }

    static ErrorRecord failed(String id, String source, ErrorReason reason) {
        return ErrorRecord.of(id, source, reason, "failed", 1);
    }

    /** Every document's mark and outcome (a result or an error row): "a" three times (f:10 result, f:9 too long, g:1 inference failed), "b" once. */
    static List<Object> corpus() {
        List<Object> all = new ArrayList<>();
        all.add(DocumentOutcome.mark(new Document("a", "late", "f:10")));
        all.add(result("a", "f:10"));
        all.add(DocumentOutcome.mark(new Document("a", "earlier", "f:9")));
        all.add(failed("a", "f:9", ErrorReason.TOO_LONG));
        all.add(DocumentOutcome.mark(new Document("a", "other file", "g:1")));
        all.add(failed("a", "g:1", ErrorReason.INFERENCE_FAILED));
        all.add(DocumentOutcome.mark(new Document("b", "only", "f:1")));
        all.add(result("b", "f:1"));
        return all;
    }

    record Run(List<String> kept, List<String> errors, List<String> dropped) {}

    static Run run(List<Object> outcomes) throws Exception {
        return run(outcomes, new KeepFirstDecision.IdKey());
    }

    static Run run(List<Object> outcomes, KeySelector<DocumentOutcome, Long> key) throws Exception {
        List<String> droppedPositions;
        List<ErrorRecord> errors;
        List<String> dropped = new ArrayList<>();
        List<DocumentOutcome> marks = new ArrayList<>();
        for (Object o : outcomes) {
            if (o instanceof DocumentOutcome mark) {
                marks.add(mark);
            }
        }
        try (var h = opened(key)) {
            for (DocumentOutcome mark : sortedByKey(marks, key)) {
                h.processElement(mark, 0);
            }
            h.endInput();
            droppedPositions = h.extractOutputValues();
            errors = new ArrayList<>(h.getSideOutput(Outputs.ERRORS).stream().map(StreamRecord::getValue).toList());
        }
        List<InferenceResult> results = new ArrayList<>();
        List<ErrorRecord> failures = new ArrayList<>();
        for (Object o : outcomes) {
            if (o instanceof InferenceResult r) {
                results.add(r);
            } else if (o instanceof ErrorRecord e) {
                failures.add(e);
            }
        }
        List<InferenceResult> kept = filter(DuplicateOutcomeFilter.ofResults(), droppedPositions, results,
                r -> dropped.add(r.source + " result"));
        errors.addAll(filter(DuplicateOutcomeFilter.ofErrors(), droppedPositions, failures,
                e -> dropped.add(e.source + " " + e.reason)));
        return new Run(kept.stream().map(r -> r.id + "@" + r.source).sorted().toList(),
                errors.stream().map(e -> e.id + "@" + e.source + " " + e.reason + " " + e.message + " "
                        + e.inputLength + " " + e.inputSha256).sorted().toList(),
                dropped.stream().sorted().toList());
    }

    /**
     * {@code marks} as BATCH hands them to a keyed operator: every mark of one key before the next
     * key's (a stable sort by key; the order within a key stays the arrival order).
     */
    static List<DocumentOutcome> sortedByKey(List<DocumentOutcome> marks, KeySelector<DocumentOutcome, Long> key)
            throws Exception {
        List<DocumentOutcome> sorted = new ArrayList<>(marks);
        java.util.Map<DocumentOutcome, Long> keys = new java.util.IdentityHashMap<>();
        for (DocumentOutcome m : marks) {
            keys.put(m, key.getKey(m));
        }
        sorted.sort(java.util.Comparator.comparing(keys::get));
        return sorted;
    }

    /** What {@code filter} passes of {@code outcomes} once it read {@code positions}; the dropped to {@code onDropped}. */
    static <T> List<T> filter(DuplicateOutcomeFilter<T> filter, List<String> positions, List<T> outcomes,
            java.util.function.Consumer<T> onDropped) throws Exception {
        try (var f = new TwoInputStreamOperatorTestHarness<T, String, T>(filter)) {
            f.open();
            for (String position : positions) {
                f.processElement2(position, 0);
            }
            f.endInput2();
            for (T o : outcomes) {
                f.processElement1(o, 0);
            }
            var droppedOut = f.getSideOutput(filter.dropped());
            if (droppedOut != null) {
                droppedOut.stream().map(StreamRecord::getValue).forEach(onDropped);
            }
            return f.extractOutputValues();
        }
    }

    @Test
    void keepsTheSmallestPositionsOutcomeAndWritesOneDuplicateRowPerOtherDocument() throws Exception {
        Run r = run(corpus());
        assertThat(r.kept()).containsExactly("b@f:1");
        String sha = ErrorRecord.of("a", "f:10", ErrorReason.DUPLICATE_ID, null, 1).withInput("late").inputSha256;
        assertThat(r.errors()).hasSize(3).contains(
                "a@f:9 too_long failed -1 null", // kept: f:9 < f:10 numerically; its own error row
                "a@f:10 duplicate_id the record at f:9 has the same id and is kept 4 " + sha);
        assertThat(r.errors()).filteredOn(e -> e.startsWith("a@g:1"))
                .singleElement().asString().startsWith("a@g:1 duplicate_id the record at f:9 has the same id");
        assertThat(r.dropped()).containsExactly("f:10 result", "g:1 inference_failed");
    }

    @Test
    void theOutcomeDoesNotDependOnArrivalOrder() throws Exception {
        Run expected = run(corpus());
        Random random = new Random(23);
        for (int i = 0; i < 20; i++) {
            List<Object> shuffled = new ArrayList<>(corpus());
            Collections.shuffle(shuffled, random);
            assertThat(run(shuffled)).isEqualTo(expected);
        }
    }

    @Test
    void idsWhoseHashesCollideAreToldApart() throws Exception {
        Run expected = run(corpus());
        assertThat(run(corpus(), o -> 42L)).isEqualTo(expected); // every id on one key
        List<Object> shuffled = new ArrayList<>(corpus());
        Collections.shuffle(shuffled, new Random(7));
        assertThat(run(shuffled, o -> 42L)).isEqualTo(expected);
        assertThat(KeepFirstDecision.IdKey.of("a")).isNotEqualTo(KeepFirstDecision.IdKey.of("b"))
                .isEqualTo(KeepFirstDecision.IdKey.of(new String("a")));
    }

    @Test
    void aKeyIsDecidedWhenTheNextKeyStarts() throws Exception {
        try (var h = opened()) {
            h.processElement(DocumentOutcome.mark(new Document("a", "later", "f:2")), 0);
            h.processElement(DocumentOutcome.mark(new Document("a", "first", "f:1")), 0);
            assertThat(h.extractOutputValues()).as("more marks of the key may follow").isEmpty();
            h.processElement(DocumentOutcome.mark(new Document("b", "only", "f:3")), 0);
            assertThat(h.extractOutputValues()).containsExactly("f:2");
            h.endInput();
            assertThat(h.extractOutputValues()).containsExactly("f:2");
        }
    }

    @Test
    void anIdSeenOnceBroadcastsNothing() throws Exception {
        try (var h = opened()) {
            h.processElement(DocumentOutcome.mark(new Document("b", "only", "f:1")), 0);
            h.processElement(DocumentOutcome.mark(new Document("c", "too long", "f:2")), 0);
            h.endInput();
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.getSideOutput(Outputs.ERRORS)).isNull();
        }
    }

    @Test
    void theFilterReadsEveryPositionBeforeAResult() throws Exception {
        var filter = DuplicateOutcomeFilter.ofResults();
        try (var f = new TwoInputStreamOperatorTestHarness<InferenceResult, String, InferenceResult>(filter)) {
            f.open();
            assertThat(filter.nextSelection()).isEqualTo(org.apache.flink.streaming.api.operators.InputSelection.SECOND);
            f.processElement2("f:10", 0);
            assertThatThrownBy(() -> f.processElement1(result("a", "f:1"), 0)).hasMessageContaining("before every");
            f.endInput2();
            assertThat(filter.nextSelection()).isEqualTo(org.apache.flink.streaming.api.operators.InputSelection.FIRST);
        }
    }
}
