package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.runtime.ForwardingRuntime;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.Vectors;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Text pairs through the real built-in MiniLM: the segment ids reach its token_type_ids input. */
class TextPairInferenceTest {
    static final String QUERY = "what does a cat eat";
    static final String PASSAGE = "Cats are carnivores; they eat meat and fish.";
    static TextTokenizer tokenizer;
    static OnnxModel model;

    @BeforeAll
    static void load() {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        tokenizer = TextTokenizer.load(card, RuntimeOptions.defaults());
        model = OnnxModel.load(card, RuntimeOptions.defaults());
    }

    @AfterAll
    static void close() {
        model.close();
        tokenizer.close();
    }

    @Test
    void segmentIdsChangeTheEmbedding() {
        TokenizedText pair = tokenizer.encodePair(QUERY, PASSAGE);
        float[] asPair = model.infer(List.of(pair.ids()), List.of(pair.segmentIds())).vectors()[0];
        float[] sameIdsSegmentZero = model.infer(List.of(pair.ids())).vectors()[0];
        int[] joined = tokenizer.encode(QUERY + " " + PASSAGE).ids();
        float[] concatenated = model.infer(List.of(joined)).vectors()[0];

        assertThat(norm(asPair)).isCloseTo(1.0, within(1e-5));
        assertThat(asPair).isNotEqualTo(sameIdsSegmentZero);
        assertThat(Vectors.cosine(asPair, sameIdsSegmentZero)).isLessThan(0.9999);
        assertThat(Vectors.cosine(asPair, concatenated)).isLessThan(0.9999);
        assertThat(Vectors.cosine(asPair, concatenated)).as("still the same content").isGreaterThan(0.8);
    }

    @Test
    void pairsAndSingleTextsShareABatch() {
        TokenizedText pair = tokenizer.encodePair(QUERY, PASSAGE);
        TokenizedText single = tokenizer.encode("a small sentence");
        float[][] mixed = model.infer(List.of(pair.ids(), single.ids()),
                List.of(pair.segmentIds(), single.segmentIds())).vectors();
        float[] pairAlone = model.infer(List.of(pair.ids()), List.of(pair.segmentIds())).vectors()[0];
        float[] singleAlone = model.infer(List.of(single.ids())).vectors()[0];

        assertThat(Vectors.cosine(mixed[0], pairAlone)).isGreaterThan(0.99999);
        assertThat(Vectors.cosine(mixed[1], singleAlone)).isGreaterThan(0.99999);
    }

    @Test
    void aSingleTextBatchAfterAPairBatchGetsZeroSegmentsAgain() {
        int[] ids = tokenizer.encode(QUERY + " " + PASSAGE).ids();
        float[] before = model.infer(List.of(ids)).vectors()[0];
        TokenizedText pair = tokenizer.encodePair(QUERY, PASSAGE);
        model.infer(List.of(pair.ids()), List.of(pair.segmentIds()));
        float[] after = model.infer(List.of(ids)).vectors()[0];
        assertThat(after).containsExactly(before);
    }

    @Test
    void aDecoratorForwardsPairs() {
        TokenizedText pair = tokenizer.encodePair(QUERY, PASSAGE);
        ModelRuntime wrapped = new ForwardingRuntime(model) {};
        float[] direct = model.infer(List.of(pair.ids()), List.of(pair.segmentIds())).vectors()[0];
        float[] forwarded = wrapped.infer(List.of(pair.ids()), List.of(pair.segmentIds())).vectors()[0];
        assertThat(forwarded).containsExactly(direct);
    }

    static double norm(float[] v) {
        return Math.sqrt(dot(v, v));
    }

    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }
}
