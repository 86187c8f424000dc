package io.github.flinkinfer.operators.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.runtime.card.InputKind;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** e5's input prefix in the tokenize operator: every window starts with it, and it has a cost. */
class PrefixedChunksTest {
    static final String LONG = "the quick brown fox jumps over the lazy dog ".repeat(30).trim();

    @Test
    void everyWindowStartsWithThePrefixAndTheSettingsNameIt() throws Exception {
        ModelCard card = ModelCard.builtIn("e5-small-v2");
        int[] passage;
        try (TextTokenizer plain = TextTokenizer.load(ModelCard.builtIn("all-minilm-l6-v2"), RuntimeOptions.defaults())) {
            passage = plain.encode("passage: x").ids(); // [CLS] passage : x [SEP], same vocabulary
        }
        List<TokenizedDocument> out = tokenize(card, new Chunking(100, 20, Chunking.Pooling.NONE));

        assertThat(out).hasSize(4);
        for (TokenizedDocument d : out) {
            assertThat(Arrays.copyOf(d.tokenIds, 3)).containsExactly(Arrays.copyOf(passage, 3));
            assertThat(d.tokenIds.length).isLessThanOrEqualTo(100 + 4);
        }
        assertThat(out.get(0).chunk.settings).startsWith("max_length=512;chunk=100/20;pooling=none;prefix=");
        assertThat(tokenize(ModelCard.builtIn("e5-small-v2").forInputs(InputKind.QUERY), Chunking.OFF)
                .get(0).chunk.settings).startsWith("max_length=512;overlong=truncate;prefix=")
                .isNotEqualTo(tokenize(card, Chunking.OFF).get(0).chunk.settings);
    }

    @Test
    void aWindowThatLeavesNoRoomForThePrefixIsRefusedAtOpen() {
        // 510 + [CLS] + [SEP] fits 512; with "passage" and ":" it does not.
        assertThatThrownBy(() -> tokenize(ModelCard.builtIn("e5-small-v2"), new Chunking(510, 0, Chunking.Pooling.NONE)))
                .hasMessageContaining("--chunk-size 510 + 4 special tokens exceeds the max length 512");
    }

    static List<TokenizedDocument> tokenize(ModelCard card, Chunking chunking) throws Exception {
        return ChunkedTokenizeTest.tokenize(card, chunking, LONG);
    }
}
