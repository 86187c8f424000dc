package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Loads of one tokenizer in a JVM share its native HF tokenizer, and encode with it concurrently. */
class SharedNativeTokenizerTest {
    final ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");

    @Test
    void twoLoadsShareOneNativeTokenizerThatTheLastCloseFrees() {
        long loadsBefore = TextTokenizer.sharedNative().loads();
        String text = "Zwei Ladevorgänge teilen sich den nativen Tokenizer — naïve café";
        TextTokenizer first = TextTokenizer.load(card, RuntimeOptions.defaults(), false);
        TextTokenizer second = TextTokenizer.load(card, RuntimeOptions.defaults(), false);
        int[] expected = first.encode(text).ids();
        var shared = first.nativeTokenizer();
        assertThat(second.nativeTokenizer()).isSameAs(shared);
        assertThat(TextTokenizer.sharedNative().loads() - loadsBefore).isLessThanOrEqualTo(1);

        first.close();
        assertThat(shared.isReleased()).isFalse();
        assertThat(second.encode(text).ids()).isEqualTo(expected);

        second.close();
        assertThat(shared.isReleased()).isTrue();
        try (TextTokenizer again = TextTokenizer.load(card, RuntimeOptions.defaults(), false)) {
            assertThat(again.nativeTokenizer()).isNotSameAs(shared);
            assertThat(again.encode(text).ids()).isEqualTo(expected);
        }
    }

    @Test
    void pairTruncatorsAreSharedApartFromThePlainTokenizer() {
        String longText = "élan vital ".repeat(200);
        try (TextTokenizer a = TextTokenizer.load(card, RuntimeOptions.defaults(), false);
                TextTokenizer b = TextTokenizer.load(card, RuntimeOptions.defaults(), false)) {
            TokenizedText pa = a.encodePair("a query", longText);
            a.close(); // b keeps the shared pair truncator open
            TokenizedText pb = b.encodePair("a query", longText);
            assertThat(pb.ids()).isEqualTo(pa.ids()).hasSize(a.maxLength());
            assertThat(pb.segmentIds()).isEqualTo(pa.segmentIds());
        }
    }

    @Test
    void threadsEncodingWithOneSharedTokenizerGetTheSingleThreadIds() throws Exception {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            texts.add("Téxte numéro " + i + " — über naïve Straße " + "wörter ".repeat(i * 7 % 300));
        }
        List<int[]> expected = new ArrayList<>();
        try (TextTokenizer single = TextTokenizer.load(card, RuntimeOptions.defaults(), false)) {
            for (String t : texts) {
                expected.add(single.encode(t).ids());
            }
        }
        int threads = 8;
        List<TextTokenizer> toks = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                toks.add(TextTokenizer.load(card, RuntimeOptions.defaults(), false));
            }
            assertThat(toks).allSatisfy(t -> assertThat(t.nativeTokenizer()).isSameAs(toks.get(0).nativeTokenizer()));
            List<Future<List<int[]>>> results = new ArrayList<>();
            for (TextTokenizer tok : toks) {
                results.add(pool.submit(() -> encodeRepeatedly(tok, texts)));
            }
            for (Future<List<int[]>> r : results) {
                List<int[]> got = r.get();
                for (int i = 0; i < got.size(); i++) {
                    assertThat(got.get(i)).isEqualTo(expected.get(i % texts.size()));
                }
            }
        } finally {
            pool.shutdown();
            toks.forEach(TextTokenizer::close);
        }
    }

    /** Each text three times: one by one, then in one batch call, then one by one again. */
    private static List<int[]> encodeRepeatedly(TextTokenizer tok, List<String> texts) {
        List<int[]> out = new ArrayList<>();
        for (String t : texts) {
            out.add(tok.encode(t).ids());
        }
        for (TokenizedText t : tok.encodeBatch(texts)) {
            out.add(t.ids());
        }
        for (String t : texts) {
            out.add(tok.encode(t).ids());
        }
        return out;
    }
}
