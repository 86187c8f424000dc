package io.github.flinkinfer.operators.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.chunk.ContentHash;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import io.github.flinkinfer.runtime.tokenize.TokenSequence;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** Chunking with the real all-MiniLM-L6-v2 tokenizer: ids, offsets and special tokens. */
class ChunkedTokenizeTest {
    static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2");
    static final String LONG = "the quick brown fox jumps over the lazy dog ".repeat(30).trim();

    @Test
    void windowsCarryTheirTokensBetweenTheModelsSpecialTokens() throws Exception {
        TokenSequence all;
        try (TextTokenizer t = TextTokenizer.load(CARD, RuntimeOptions.defaults())) {
            all = t.encodeAll(LONG);
        }
        assertThat(all.prefix()).hasSize(1);
        assertThat(all.suffix()).hasSize(1);
        assertThat(all.content()).hasSize(270);

        List<TokenizedDocument> out = tokenize(new Chunking(100, 20, Chunking.Pooling.NONE), LONG);
        // windows [0,100) [80,180) [160,260) [240,270)
        assertThat(out).extracting(d -> d.id).containsExactly("doc#0", "doc#1", "doc#2", "doc#3");
        assertThat(out).extracting(d -> d.chunk.tokenStart).containsExactly(0, 80, 160, 240);
        assertThat(out).extracting(d -> d.chunk.tokenEnd).containsExactly(100, 180, 260, 270);
        for (TokenizedDocument d : out) {
            ChunkRef c = d.chunk;
            assertThat(c.docId).isEqualTo("doc");
            assertThat(c.chunkCount).isEqualTo(4);
            assertThat(c.contentSha256).isEqualTo(ContentHash.sha256(LONG));
            assertThat(d.tokenIds[0]).isEqualTo(all.prefix()[0]);
            assertThat(d.tokenIds[d.tokenIds.length - 1]).isEqualTo(all.suffix()[0]);
            assertThat(Arrays.copyOfRange(d.tokenIds, 1, d.tokenIds.length - 1))
                    .containsExactly(Arrays.copyOfRange(all.content(), c.tokenStart, c.tokenEnd));
            assertThat(d.truncated()).isFalse();
        }
    }

    @Test
    void aShortDocumentIsOneChunkAndChunkingOffKeepsOneRowPerDocument() throws Exception {
        List<TokenizedDocument> chunked = tokenize(new Chunking(100, 20, Chunking.Pooling.NONE), "a fox");
        assertThat(chunked).hasSize(1);
        assertThat(chunked.get(0).id).isEqualTo("doc#0");
        assertThat(chunked.get(0).chunk.tokenEnd).isEqualTo(2);
        assertThat(chunked.get(0).tokenIds).hasSize(4);

        List<TokenizedDocument> off = tokenize(Chunking.OFF, LONG);
        assertThat(off).hasSize(1);
        assertThat(off.get(0).id).isEqualTo("doc");
        assertThat(off.get(0).truncated()).isTrue();
        assertThat(off.get(0).chunk.chunkIndex).isEqualTo(-1);
        assertThat(off.get(0).chunk.settings).isEqualTo("max_length=256;overlong=truncate");
    }

    static List<TokenizedDocument> tokenize(Chunking chunking, String text) throws Exception {
        return tokenize(CARD, chunking, text);
    }

    /** The outputs of {@link TokenizeFunction} with {@code card} and {@code chunking} for one document. */
    static List<TokenizedDocument> tokenize(ModelCard card, Chunking chunking, String text) throws Exception {
        var h = ProcessFunctionTestHarnesses.forProcessFunction(
                new TokenizeFunction(card, RuntimeOptions.defaults(), OverlongPolicy.TRUNCATE, chunking));
        h.processElement(new Document("doc", text, "f:1"), 0);
        List<TokenizedDocument> out = h.extractOutputValues();
        h.close();
        return out;
    }
}
