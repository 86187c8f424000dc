package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Query-passage pairs through the real MiniLM tokenizer (max length 256). */
class TextPairEncodingTest {
    static final int CLS = 101;
    static final int SEP = 102;
    static TextTokenizer tok;

    @BeforeAll
    static void load() {
        tok = TextTokenizer.load(ModelCard.builtIn("all-minilm-l6-v2"), RuntimeOptions.defaults());
    }

    @AfterAll
    static void close() {
        tok.close();
    }

    @Test
    void pairTemplateWithSegmentIds() {
        String query = "what does a cat eat";
        String passage = "Cats are carnivores; they eat meat and fish.";
        TokenizedText pair = tok.encodePair(query, passage);
        int[] q = tok.encodeAll(query).content();
        int[] p = tok.encodeAll(passage).content();
        int firstSep = 1 + q.length;

        assertThat(pair.ids()).hasSize(q.length + p.length + 3);
        assertThat(pair.ids()[0]).isEqualTo(CLS);
        assertThat(Arrays.copyOfRange(pair.ids(), 1, firstSep)).containsExactly(q);
        assertThat(pair.ids()[firstSep]).isEqualTo(SEP);
        assertThat(Arrays.copyOfRange(pair.ids(), firstSep + 1, pair.ids().length - 1)).containsExactly(p);
        assertThat(pair.ids()[pair.ids().length - 1]).isEqualTo(SEP);
        assertThat(pair.segmentIds()).containsExactly(segments(firstSep + 1, p.length + 1));
        assertThat(pair.truncated()).isFalse();
        assertThat(pair.originalTokenCount()).isEqualTo(pair.ids().length);
    }

    @Test
    void singleTextsKeepSegmentZero() {
        TokenizedText single = tok.encode("a small sentence");
        assertThat(single.segmentIds()).hasSameSizeAs(single.ids()).containsOnly(0);
    }

    @Test
    void longPassageIsCutWhileTheQueryStaysWhole() {
        String query = "what does a cat eat";
        TokenizedText pair = tok.encodePair(query, "word ".repeat(300));
        int q = tok.encodeAll(query).content().length;

        assertThat(pair.ids()).hasSize(256);
        assertThat(pair.truncated()).isTrue();
        assertThat(pair.originalTokenCount()).isEqualTo(q + 300 + 3);
        assertThat(Arrays.copyOfRange(pair.ids(), 1, 1 + q)).containsExactly(tok.encodeAll(query).content());
        assertThat(pair.ids()[1 + q]).isEqualTo(SEP);
        assertThat(pair.ids()[255]).isEqualTo(SEP);
        assertThat(pair.segmentIds()).containsExactly(segments(q + 2, 256 - q - 2));
    }

    @Test
    void twoLongTextsAreCutLongestFirstAndBothSurvive() {
        TokenizedText pair = tok.encodePair("question ".repeat(200), "answer ".repeat(400));
        int[] ids = pair.ids();
        int firstSep = IntStream.range(1, ids.length).filter(i -> ids[i] == SEP).findFirst().getAsInt();
        int first = firstSep - 1;
        int second = ids.length - firstSep - 2;

        assertThat(ids).hasSize(256);
        assertThat(pair.originalTokenCount()).isEqualTo(603);
        assertThat(first + second).isEqualTo(253);
        assertThat(Math.abs(first - second)).isLessThanOrEqualTo(1); // both longer than half: halved
        assertThat(ids[ids.length - 1]).isEqualTo(SEP);
        assertThat(pair.segmentIds()).containsExactly(segments(firstSep + 1, second + 1));
    }

    /** {@code zeros} 0s then {@code ones} 1s. */
    static int[] segments(int zeros, int ones) {
        int[] s = new int[zeros + ones];
        Arrays.fill(s, zeros, s.length, 1);
        return s;
    }
}
