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

    static KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, DroppedDuplicate> opened() throws Exception {
        return opened(new KeepFirstDecision.IdKey());
    }

    static KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, DroppedDuplicate> opened(
            KeySelector<DocumentOutcome, Long> key) throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<Long, DocumentOutcome, DroppedDuplicate>(
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
        List<DroppedDuplicate> droppedPositions;
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
    static <T> List<T> filter(DuplicateOutcomeFilter<T> filter, List<DroppedDuplicate> positions, List<T> outcomes,
            java.util.function.Consumer<T> onDropped) throws Exception {
        try (var f = new TwoInputStreamOperatorTestHarness<T, DroppedDuplicate, T>(filter)) {
            f.open();
            for (DroppedDuplicate position : positions) {
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
            assertThat(h.extractOutputValues()).extracting(d -> d.position + " " + d.keptAt).containsExactly("f:2 f:1");
            h.endInput();
            assertThat(h.extractOutputValues()).extracting(d -> d.position).containsExactly("f:2");
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

    /**
     * The id pass's marks carry id and position only: the decision writes no row for them, and the
     * filter before tokenize, which holds the dropped documents, writes the same rows the marks
     * with the inputs' hashes get from the decision.
     */
    @Test
    void theIdPassesDroppedDocumentsGetTheirRowsFromTheFilterBeforeTokenize() throws Exception {
        List<Document> docs = List.of(new Document("a", "late", "f:10"), new Document("a", "earlier", "f:9"),
                new Document("a", "other file", "g:1"), new Document("b", "only", "f:1"), new Document("c", null, "f:2"),
                new Document("c", "same id, no text before", "f:3"));
        List<DroppedDuplicate> dropped;
        List<String> decisionRows = new ArrayList<>();
        try (var h = opened()) {
            for (DocumentOutcome mark : sortedByKey(docs.stream().map(DocumentOutcome::position).toList(),
                    new KeepFirstDecision.IdKey())) {
                h.processElement(mark, 0);
            }
            h.endInput();
            dropped = h.extractOutputValues();
            assertThat(h.getSideOutput(Outputs.ERRORS)).as("the decision writes no row for a bare mark").isNull();
        }
        try (var h = opened()) { // the same documents marked with their inputs: the decision's rows
            for (DocumentOutcome mark : sortedByKey(docs.stream().map(DocumentOutcome::mark).toList(),
                    new KeepFirstDecision.IdKey())) {
                h.processElement(mark, 0);
            }
            h.endInput();
            h.getSideOutput(Outputs.ERRORS).forEach(r -> decisionRows.add(described(r.getValue())));
        }
        var filter = DuplicateOutcomeFilter.ofDocuments();
        assertThat(filter.dropped()).isNull();
        try (var f = new TwoInputStreamOperatorTestHarness<Document, DroppedDuplicate, Document>(filter)) {
            f.open();
            for (DroppedDuplicate d : dropped) {
                f.processElement2(d, 0);
            }
            f.endInput2();
            for (Document d : docs) {
                f.processElement1(d, 0);
            }
            assertThat(f.extractOutputValues()).extracting(d -> d.source).containsExactly("f:9", "f:1", "f:2");
            List<String> rows = f.getSideOutput(Outputs.ERRORS).stream().map(r -> described(r.getValue())).toList();
            assertThat(rows).hasSize(3).containsExactlyInAnyOrderElementsOf(decisionRows)
                    .contains("c@f:3 duplicate_id the record at f:2 has the same id and is kept 23 "
                            + ErrorRecord.of("c", "f:3", ErrorReason.DUPLICATE_ID, null, 1)
                                    .withInput("same id, no text before").inputSha256);
        }
    }

    private static String described(ErrorRecord e) {
        return e.id + "@" + e.source + " " + e.reason + " " + e.message + " " + e.inputLength + " " + e.inputSha256;
    }

    @Test
    void theFilterReadsEveryPositionBeforeAResult() throws Exception {
        var filter = DuplicateOutcomeFilter.ofResults();
        try (var f = new TwoInputStreamOperatorTestHarness<InferenceResult, DroppedDuplicate, InferenceResult>(filter)) {
            f.open();
            assertThat(filter.nextSelection()).isEqualTo(org.apache.flink.streaming.api.operators.InputSelection.SECOND);
            f.processElement2(new DroppedDuplicate("f:10", "f:9"), 0);
            assertThatThrownBy(() -> f.processElement1(result("a", "f:1"), 0)).hasMessageContaining("before every");
            f.endInput2();
            assertThat(filter.nextSelection()).isEqualTo(org.apache.flink.streaming.api.operators.InputSelection.FIRST);
        }
    }
}
