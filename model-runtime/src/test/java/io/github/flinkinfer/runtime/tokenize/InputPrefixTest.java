package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.InputKind;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import org.junit.jupiter.api.Test;

/** The tokenizer puts the card's prefix for the run's input kind before every text. */
class InputPrefixTest {
    static final String TEXT = "close call: something achieved by a narrow margin";

    /** The same card with no prefixes: the text is tokenized exactly as given. */
    static ModelCard plain(String name) {
        return ModelCard.builtIn(name).toBuilder().prefixes(ModelCard.Prefixes.none()).build();
    }

    @Test
    void e5GetsQueryAndPassagePrefixes() {
        try (TextTokenizer query = TextTokenizer.load(
                        ModelCard.builtIn("e5-small-v2").forInputs(InputKind.QUERY), RuntimeOptions.defaults());
                TextTokenizer passage = TextTokenizer.load(
                        ModelCard.builtIn("e5-small-v2"), RuntimeOptions.defaults());
                TextTokenizer none = TextTokenizer.load(plain("e5-small-v2"), RuntimeOptions.defaults())) {
            assertThat(query.encode(TEXT).ids()).isEqualTo(none.encode("query: " + TEXT).ids());
            assertThat(passage.encode(TEXT).ids()).isEqualTo(none.encode("passage: " + TEXT).ids());
            assertThat(passage.reservedTokens()).isEqualTo(none.reservedTokens() + 2); // passage, :
        }
    }

    @Test
    void bgeInstructsQueriesOnlyAndPassagesAreUntouched() {
        ModelCard bge = ModelCard.builtIn("bge-small-en-v1.5");
        assertThat(bge.inputPrefix()).isEmpty();
        try (TextTokenizer query = TextTokenizer.load(
                        ModelCard.builtIn("bge-small-en-v1.5").forInputs(InputKind.QUERY),
                        RuntimeOptions.defaults());
                TextTokenizer passage = TextTokenizer.load(bge, RuntimeOptions.defaults());
                TextTokenizer none = TextTokenizer.load(plain("bge-small-en-v1.5"), RuntimeOptions.defaults())) {
            assertThat(query.encode(TEXT).ids()).isEqualTo(
                    none.encode("Represent this sentence for searching relevant passages: " + TEXT).ids());
            assertThat(passage.encode(TEXT).ids()).isEqualTo(none.encode(TEXT).ids());
        }
    }

    @Test
    void truncationKeepsThePrefixAndChunkWindowsEachGetIt() {
        RuntimeOptions eight = RuntimeOptions.defaults().withMaxSequenceLength(8);
        try (TextTokenizer passage = TextTokenizer.load(ModelCard.builtIn("e5-small-v2"), eight);
                TextTokenizer none = TextTokenizer.load(plain("e5-small-v2"), RuntimeOptions.defaults())) {
            int[] full = none.encode("passage: " + TEXT).ids();
            TokenizedText cut = passage.encode(TEXT);
            assertThat(cut.ids()).hasSize(8).startsWith(java.util.Arrays.copyOf(full, 7));
            assertThat(cut.ids()[7]).isEqualTo(full[full.length - 1]); // [SEP]
            assertThat(cut.originalTokenCount()).isEqualTo(full.length);

            TokenSequence seq = passage.encodeAll(TEXT);
            assertThat(seq.prefix()).isEqualTo(java.util.Arrays.copyOf(full, 3)); // [CLS] passage :
            assertThat(seq.content()).isEqualTo(none.encodeAll(TEXT).content());
        }
    }

    @Test
    void aPrefixThatMergesWithTheTextIsRefused() {
        ModelCard card = ModelCard.builtIn("e5-small-v2").toBuilder()
                .prefixes(new ModelCard.Prefixes(null, "pass")).build();
        assertThatThrownBy(() -> TextTokenizer.load(card, RuntimeOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not tokenize apart");
    }
}
