package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
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

    @Test
    void loadsOfOneFileShareItsParsedDefinitionAndEncodeAlike() {
        byte[] json = ModelFiles.readVerified(card, card.tokenizer);
        TextTokenizer.Definition d = TextTokenizer.Definition.of(card.tokenizer.sha256(), json);
        assertThat(d.cuttable()).isTrue();
        assertThat(d.fast()).isNotNull();
        assertThat(TextTokenizer.Definition.of(card.tokenizer.sha256(), json)).isSameAs(d);
        String text = "Loads share the vocabulary and the native tokenizer. " + "word ".repeat(400);
        try (TextTokenizer a = TextTokenizer.load(card, RuntimeOptions.defaults());
                TextTokenizer b = TextTokenizer.load(card, RuntimeOptions.defaults());
                TextTokenizer library = TextTokenizer.load(card, RuntimeOptions.defaults(), false)) {
            assertThat(b.encode(text).ids()).isEqualTo(a.encode(text).ids()).isEqualTo(library.encode(text).ids());
            assertThat(a.encode(text).originalTokenCount()).isEqualTo(library.encode(text).originalTokenCount());
        }
    }

    @Test
    void preparingATokenizerWhoseFileFailsItsChecksumLeavesTheErrorToTheLoad() throws Exception {
        ModelCard builtIn = ModelCard.builtIn("all-minilm-l6-v2");
        ModelCard bad = builtIn.toBuilder()
                .tokenizer(new ModelFile(builtIn.tokenizer.path(), "0".repeat(64))).build();
        TextTokenizer.prepare(bad); // returns at once; its thread fails quietly
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TextTokenizer.load(bad, RuntimeOptions.defaults()))
                .isInstanceOf(ModelIntegrityException.class).hasMessageContaining("Checksum mismatch");
    }
}
