package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TextTokenizer#encode} and {@link TextTokenizer#encodeBatch} (ids only, long texts cut at a
 * word end) give exactly the ids of DJL's whole-text encode ({@link WholeTextEncoder}), on the
 * bundled sample, on long lines and on ASCII edge cases of the Java WordPiece, for every built-in
 * model's tokenizer (its texts go through {@link WordPieceEncoder} where they are ASCII, through
 * the HF library where not); the original length is
 * exact when not truncated and a lower bound above the max length when truncated.
 */
class TokenizationEquivalenceTest {

    static List<String> texts() {
        List<String> sample = SampleTexts.texts(Integer.MAX_VALUE);
        List<String> texts = new ArrayList<>(sample);
        String all = String.join(" ", sample);
        texts.add(all); // about 30,000 tokens of real text on one line
        texts.add("word ".repeat(20_000)); // 20,002 tokens
        texts.add(("x".repeat(120) + " ").repeat(600)); // 600 words of one [UNK] each: the head is too short
        texts.add("a,b;".repeat(10_000)); // no space at all: tokenized whole
        texts.add(all.replace(' ', '\n').substring(0, 50_000)); // line breaks as word ends
        texts.add("Café naïve ÉLAN 東京大学 \t résumé\u0000 \u00A0nbsp ".repeat(400)); // accents, CJK, control
        texts.addAll(WordPieceEncoderTest.ASCII_EDGES);
        for (int chars = 900; chars <= 1400; chars += 7) { // around the cut's threshold (8 chars per token)
            texts.add(all.substring(0, chars));
        }
        for (int words = 120; words <= 140; words++) { // around max length 128 in tokens
            texts.add("tok ".repeat(words).strip());
        }
        return texts;
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "bge-small-en-v1.5", "e5-small-v2"})
    void idsAreThoseOfTheWholeTextEncode(String model) {
        ModelCard card = ModelCard.builtIn(model);
        List<String> texts = texts();
        for (int maxLength : new int[] {128, 512}) {
            RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(maxLength);
            try (TextTokenizer tok = TextTokenizer.load(card, options);
                    WholeTextEncoder whole = new WholeTextEncoder(card, tok.maxLength())) {
                List<TokenizedText> batched = new ArrayList<>();
                for (int i = 0; i < texts.size(); i += 64) {
                    batched.addAll(List.of(tok.encodeBatch(texts.subList(i, Math.min(texts.size(), i + 64)))));
                }
                int truncated = 0;
                for (int i = 0; i < texts.size(); i++) {
                    TokenizedText expected = whole.encode(texts.get(i));
                    for (TokenizedText actual : List.of(tok.encode(texts.get(i)), batched.get(i))) {
                        assertThat(actual.ids()).as("text %d", i).isEqualTo(expected.ids());
                        assertThat(actual.segmentIds()).isEqualTo(expected.segmentIds());
                        assertThat(actual.truncated()).isEqualTo(expected.truncated());
                        if (expected.truncated()) {
                            assertThat(actual.originalTokenCount())
                                    .isGreaterThan(tok.maxLength())
                                    .isLessThanOrEqualTo(expected.originalTokenCount());
                        } else {
                            assertThat(actual.originalTokenCount()).isEqualTo(expected.originalTokenCount());
                        }
                    }
                    truncated += expected.truncated() ? 1 : 0;
                }
                assertThat(truncated).isGreaterThanOrEqualTo(maxLength == 128 ? 30 : 5);
                // the long line was cut, not tokenized whole (its reported length is a lower bound)
                assertThat(tok.encode(texts.get(2000)).originalTokenCount())
                        .isLessThan(whole.encode(texts.get(2000)).originalTokenCount() / 10);
                TokenSequence seq = tok.encodeAll(texts.get(2000));
                assertThat(seq.prefix().length + seq.content().length + seq.suffix().length)
                        .isEqualTo(whole.encode(texts.get(2000)).originalTokenCount()); // exact for chunking
            }
        }
    }
}
