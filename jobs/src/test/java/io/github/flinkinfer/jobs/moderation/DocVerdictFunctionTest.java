package io.github.flinkinfer.jobs.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.card.Classification;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class DocVerdictFunctionTest {
    static final Classification SPAM = classification();

    @Test
    void aDocumentIsJudgedByItsWorstWindowWhateverTheArrivalOrder() throws Exception {
        for (List<Integer> order : List.of(List.of(0, 1, 2), List.of(2, 1, 0), List.of(1, 2, 0))) {
            try (var h = harness()) {
                h.open();
                ModerationResult[] windows = {
                    window("mail", 0, 3, 0.10f), window("mail", 1, 3, 0.80f), window("mail", 2, 3, 0.95f)};
                h.processElement(window("other", 0, 2, 0.2f), 0);
                for (int i : order) {
                    h.processElement(windows[i], 0);
                }
                List<ModerationResult> out = h.extractOutputValues();
                assertThat(out).hasSize(1); // "other" still waits for its second window
                ModerationResult v = out.get(0);
                assertThat(v.id).isEqualTo("mail");
                assertThat(v.chunkCount).isEqualTo(3);
                assertThat(v.decidingChunk).isEqualTo(2);
                assertThat(v.flagged).isTrue();
                assertThat(v.label).isEqualTo("spam");
                assertThat(v.decidingTokenEnd).isEqualTo(3 * 100);
            }
        }
    }

    @Test
    void aCleanDocumentStaysCleanAndTiesGoToTheEarlierWindow() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement(window("ham", 1, 2, 0.3f), 0);
            h.processElement(window("ham", 0, 2, 0.3f), 0);
            ModerationResult v = h.extractOutputValues().get(0);
            assertThat(v.flagged).isFalse();
            assertThat(v.decidingChunk).isZero();
            assertThat(v.label).isEqualTo("ham");
        }
    }

    @Test
    void meanPolicyDecidesOnTheMeanOfTheWindowsScores() throws Exception {
        try (var h = harness(DocVerdictFunction.Policy.MEAN)) {
            h.open();
            h.processElement(window("long", 0, 3, 0.9f), 0); // one spammy window ...
            h.processElement(window("long", 1, 3, 0.1f), 0);
            h.processElement(window("long", 2, 3, 0.2f), 0);
            ModerationResult v = h.extractOutputValues().get(0);
            assertThat(v.scores[1]).isCloseTo(0.4f, org.assertj.core.data.Offset.offset(1e-6f));
            assertThat(v.flagged).isFalse(); // ... does not flag the mean
            assertThat(v.label).isEqualTo("ham");
            assertThat(v.decidingChunk).isEqualTo(-1);
            assertThat(v.tokenCount).isEqualTo(300);
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ModerationResult, ModerationResult> harness()
            throws Exception {
        return harness(DocVerdictFunction.Policy.WORST);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ModerationResult, ModerationResult> harness(
            DocVerdictFunction.Policy policy) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new DocVerdictFunction(SPAM, policy)), r -> r.docId, Types.STRING);
    }

    /** A window verdict as {@link ModerationResult#of} makes it, with spam probability {@code p}. */
    static ModerationResult window(String doc, int index, int count, float p) {
        ModerationResult m = new ModerationResult();
        m.id = doc + "#" + index;
        m.docId = doc;
        m.labels = new String[] {"ham", "spam"};
        m.scores = new float[] {1 - p, p};
        Classification.Decision d = SPAM.decide(m.scores);
        m.label = d.label();
        m.score = d.score();
        m.flagged = d.flagged();
        m.flaggedLabels = d.flaggedLabels().toArray(String[]::new);
        m.chunkCount = count;
        m.decidingChunk = index;
        m.decidingTokenStart = index * 100;
        m.decidingTokenEnd = (index + 1) * 100;
        m.model = "m";
        m.modelVersion = "1";
        return m;
    }

    static Classification classification() {
        return new Classification(List.of("ham", "spam"), false, Classification.Activation.SOFTMAX,
                Map.of("spam", 0.5f), null, null);
    }
}
