package io.github.flinkinfer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextTokenizerTest {
    final ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");

    @Test
    void overridesBakedInTruncationAndReportsOriginalLength() {
        try (TextTokenizer tok =
                TextTokenizer.load(card, RuntimeOptions.defaults().withMaxSequenceLength(0))) {
            String longText = "word ".repeat(300);
            TokenizedText t = tok.encode(longText);
            assertThat(tok.maxLength()).isEqualTo(256);
            assertThat(t.originalTokenCount()).isEqualTo(302); // [CLS] + 300 + [SEP]
            assertThat(t.ids()).hasSize(256);
            assertThat(t.truncated()).isTrue();
            assertThat(t.ids()[0]).isEqualTo(101); // [CLS]
            assertThat(t.ids()[255]).isEqualTo(102); // [SEP] kept at the end
        }
    }

    @Test
    void shortTextIsNotPaddedOrTruncated() {
        try (TextTokenizer tok = TextTokenizer.load(card, RuntimeOptions.defaults())) {
            TokenizedText t = tok.encode("a small sentence");
            assertThat(t.ids()).hasSize(5);
            assertThat(t.truncated()).isFalse();
            assertThat(t.originalTokenCount()).isEqualTo(5);
        }
    }
}
