package io.github.flinkinfer.operators.dedupe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The documents' filter partitioned by position: a document and its dropped position reach the
 * same subtask, the positions spread over the subtasks, and P filter subtasks fed that way hold
 * each dropped position once (not P times, as a broadcast held them) and give the outcomes one
 * filter gives.
 */
class DuplicateOutcomeFilterTest {
    private static final String FILE = "s3://bucket/corpus/part-00007.jsonl@";

    private static <T> int subtask(StreamPartitioner<T> partitioner, T record, int subtasks) {
        partitioner.setup(subtasks);
        SerializationDelegate<StreamRecord<T>> delegate = new SerializationDelegate<>(null);
        delegate.setInstance(new StreamRecord<>(record));
        return partitioner.selectChannel(delegate);
    }

    @ParameterizedTest(name = "{0} subtasks")
    @ValueSource(ints = {1, 2, 3, 16, 48})
    void aDocumentAndItsDroppedPositionGoToOneSubtask(int subtasks) {
        StreamPartitioner<Document> documents = DuplicateOutcomeFilter.ofDocuments().outcomes();
        StreamPartitioner<DroppedDuplicate> positions = DuplicateOutcomeFilter.positions();
        for (long offset = 0; offset < 500_000; offset += 97) {
            String at = FILE + offset;
            int subtask = subtask(documents, new Document("d", "text", at), subtasks);
            assertThat(subtask).isBetween(0, subtasks - 1);
            assertThat(subtask(positions, new DroppedDuplicate(at, FILE + 0), subtasks)).isEqualTo(subtask);
        }
    }

    @Test
    void thePositionsOfOneFileSpreadOverTheSubtasks() {
        StreamPartitioner<DroppedDuplicate> positions = DuplicateOutcomeFilter.positions();
        int[] counts = new int[16];
        for (int line = 0; line < 16_000; line++) {
            counts[subtask(positions, new DroppedDuplicate(FILE + (line * 143L), FILE + 0), 16)]++;
        }
        for (int c : counts) {
            assertThat(c).as("of 1,000 expected").isBetween(850, 1_150);
        }
    }

    @Test
    void filterSubtasksFedByPositionHoldEachDroppedPositionOnceAndDropWhatOneFilterDrops() throws Exception {
        int subtasks = 3;
        List<Document> documents = new ArrayList<>();
        List<DroppedDuplicate> dropped = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            documents.add(new Document("id-" + (i % 200), "text " + i, FILE + (i * 50L)));
            if (i >= 200) {
                dropped.add(new DroppedDuplicate(FILE + (i * 50L), FILE + ((i - 200) * 50L)));
            }
        }
        List<String> kept = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        int held = 0;
        for (int s = 0; s < subtasks; s++) {
            DuplicateOutcomeFilter<Document> filter = DuplicateOutcomeFilter.ofDocuments();
            try (var h = new TwoInputStreamOperatorTestHarness<Document, DroppedDuplicate, Document>(filter)) {
                h.open();
                int mine = 0;
                for (DroppedDuplicate d : dropped) {
                    if (subtask(DuplicateOutcomeFilter.positions(), d, subtasks) == s) {
                        h.processElement2(d, 0);
                        mine++;
                    }
                }
                h.endInput2();
                held += mine;
                assertThat(mine).as("subtask %d's share of 100 dropped positions", s).isBetween(15, 60);
                for (Document d : documents) {
                    if (subtask(filter.outcomes(), d, subtasks) == s) {
                        h.processElement1(d, 0);
                    }
                }
                h.extractOutputValues().forEach(d -> kept.add(d.source));
                var errors = h.getSideOutput(Outputs.ERRORS);
                if (errors != null) {
                    errors.stream().map(StreamRecord::getValue).map(e -> e.message).forEach(rows::add);
                }
            }
        }
        assertThat(held).as("each dropped position held by one subtask").isEqualTo(100);
        assertThat(kept).hasSize(200).allSatisfy(at -> assertThat(Long.parseLong(at.substring(FILE.length())))
                .isLessThan(200 * 50L));
        assertThat(rows).hasSize(100).allSatisfy(m -> assertThat(m).endsWith("has the same id and is kept"));
    }
}
