package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Keep-first dedupe decided on ids and positions only (BATCH mode): on the position marks keyed
 * by a 64-bit hash of the id ({@link IdKey}), the document with the smallest source position
 * ({@link DeduplicateFunction#comparePositions}) of each id is kept, and every other document of
 * the id becomes one {@code duplicate_id} row naming the kept position: written here ({@link
 * Outputs#ERRORS}) where its mark describes the input ({@link DocumentOutcome#mark}), else by the
 * filter that drops the document ({@link DocumentOutcome#position}, the id pass's marks). The main
 * output is each dropped document ({@link DroppedDuplicate}): {@link DuplicateOutcomeFilter} drops
 * their outcomes (documents, results, error rows), so no vector goes through this keyed sort, and
 * the decision never waits on inference when the marks come from a pass of their own over the
 * inputs ({@code KeepFirstAfterInference}).
 *
 * <p>The key is a hash, not the id, because BATCH sorts every mark by its key: a fixed 8-byte key
 * sorts on its normalized bytes alone, where a string key is compared record by record on its
 * serialized bytes (the sort was most of this operator's time, docs/benchmarks/). Ids whose hashes
 * collide share a key and are told apart here, so the outcome is exact whatever the hash.
 *
 * <p>A keyed operator that needs BATCH's sorted input: Flink hands it every mark of one key before
 * the next key's (Flink's "Execution Mode" page), so the marks of the current key are held in a
 * list and decided when the key changes and at the end of the input, with no keyed state and no
 * timer per key (a {@code KeyedProcessFunction} with list state and a timer per key took about 18%
 * more of this task's CPU: docs/benchmarks/keep-first-decision-2026-12-06.md).
 * Held: the marks of one key, usually one. Which document is kept and every row written depend
 * only on the positions, not on the order the marks of a key arrive in. An id seen once (the
 * usual case) emits nothing.
 *
 * <pre>{@code
 * marks.keyBy(new KeepFirstDecision.IdKey(), Types.LONG)
 *         .transform("keep-first-ids", TypeInformation.of(DroppedDuplicate.class), new KeepFirstDecision());
 * }</pre>
 */
public final class KeepFirstDecision extends AbstractStreamOperator<DroppedDuplicate>
        implements OneInputStreamOperator<DocumentOutcome, DroppedDuplicate>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private transient List<DocumentOutcome> marks; // of the current key
    private transient Object markKey;

    /** The key of an outcome: a 64-bit FNV-1a hash of its id's chars. */
    public static final class IdKey implements KeySelector<DocumentOutcome, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(DocumentOutcome o) {
            return of(o.id);
        }

        /** The hash of {@code id}. */
        public static long of(String id) {
            long h = 0xcbf29ce484222325L;
            for (int i = 0; i < id.length(); i++) {
                h = (h ^ id.charAt(i)) * 0x100000001b3L;
            }
            return h;
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        marks = new ArrayList<>();
    }

    @Override
    public void processElement(StreamRecord<DocumentOutcome> mark) {
        Object key = getCurrentKey();
        if (!marks.isEmpty() && !key.equals(markKey)) {
            decide();
        }
        markKey = key;
        marks.add(mark.getValue());
    }

    @Override
    public void endInput() {
        decide();
    }

    /** The rows of the current key's marks; then forgets them. */
    private void decide() {
        if (marks.size() > 1) {
            Map<String, List<DocumentOutcome>> byId = new TreeMap<>(); // ids of colliding hashes, in a fixed order
            for (DocumentOutcome o : marks) {
                byId.computeIfAbsent(o.id, k -> new ArrayList<>(2)).add(o);
            }
            for (List<DocumentOutcome> ofId : byId.values()) {
                keepFirst(ofId);
            }
        }
        marks.clear(); // an id seen once, the usual case: nothing to say
    }

    /** The rows of one id's marks. */
    private void keepFirst(List<DocumentOutcome> ofId) {
        if (ofId.size() == 1) {
            return;
        }
        String kept = ofId.get(0).source;
        for (DocumentOutcome m : ofId) {
            if (DeduplicateFunction.comparePositions(m.source, kept) < 0) {
                kept = m.source;
            }
        }
        List<ErrorRecord> duplicates = new ArrayList<>();
        for (DocumentOutcome m : ofId) {
            if (!m.source.equals(kept)) {
                if (m.describesInput()) {
                    duplicates.add(m.duplicateRow(kept));
                }
                output.collect(new StreamRecord<>(new DroppedDuplicate(m.source, kept)));
            }
        }
        duplicates.sort((a, b) -> DeduplicateFunction.comparePositions(a.source, b.source));
        for (ErrorRecord row : duplicates) {
            output.collect(Outputs.ERRORS, new StreamRecord<>(row));
        }
    }
}
