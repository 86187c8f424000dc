package io.github.flinkinfer.runtime.tokenize;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WordPieceEncoder} gives the HF library's ids (through DJL, with special tokens, untruncated)
 * for every ASCII text, answers null outside its domain, and is offered only for BERT's pipeline.
 */
class WordPieceEncoderTest {

    /** ASCII texts at the edges of BERT's normalizer, pre-tokenizer and WordPiece. */
    static final List<String> ASCII_EDGES = List.of(
            "",
            " ",
            "\t\n\r ",
            "Hello, World! It's 3:45pm -- e.g. U.S.A. (approx.) ~$1,000.50",
            "UPPER lower MiXeD CamelCaseWord snake_case kebab-case dot.separated",
            "control\u0001char\u0007s\u000Bvertical\u000Cform\u001Fend\u007Fdel",
            "\u0000nul at start and end\u0000",
            "!!!???...,,,;;;:::'''\"\"\"```~~~@@@###$$$%%%^^^&&&***((()))[[[]]]{{{}}}|||\\\\\\///+++===<<<>>>___---",
            "##hash ##prefix ## # ##",
            "antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis",
            "x".repeat(100) + " " + "y".repeat(101) + " " + "z".repeat(99),
            "1234567890 3.14159 1e-10 0x1F 2026-12-02 12:30:45",
            "qzxjvkw zzzzqqqq xqxqxq bcdfghjklmnpqrstvwxz",
            "[ CLS] [UNK [SEP [cls] [Sep] [MASKED] [PAD[",
            "word\u0085next", // U+0085 is not ASCII: the library does this one
            "a b  c   d    e\t\tf\n\ng\r\rh");

    static JsonNode tokenizerJson(ModelCard card) throws Exception {
        return new ObjectMapper().readTree(ModelFiles.readVerified(card, card.tokenizer));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "bge-small-en-v1.5", "e5-small-v2"})
    void asciiTextsGetTheLibrarysIds(String model) throws Exception {
        ModelCard card = ModelCard.builtIn(model);
        WordPieceEncoder fast = WordPieceEncoder.forTokenizer(tokenizerJson(card));
        assertThat(fast).isNotNull();
        assertThat(fast.leadingSpecialTokens()).isEqualTo(1);
        assertThat(fast.trailingSpecialTokens()).isEqualTo(1);
        List<String> texts = new ArrayList<>(SampleTexts.texts(Integer.MAX_VALUE));
        texts.addAll(ASCII_EDGES);
        int inDomain = 0;
        try (var hf = TextTokenizer.open(card, Map.of("truncation", "false"))) {
            for (String text : texts) {
                int[] ids = fast.ids(text);
                boolean ascii = text.chars().allMatch(c -> c < 128);
                assertThat(ids == null).as("outside the domain: %s", ascii ? "ascii" : "not ascii").isEqualTo(!ascii);
                if (ids != null) {
                    long[] expected = hf.encode(text, true, false).getIds();
                    assertThat(ids).as("ids of text %d", texts.indexOf(text))
                            .containsExactly(java.util.Arrays.stream(expected).mapToInt(l -> (int) l).toArray());
                    inDomain++;
                }
            }
        }
        assertThat(inDomain).isGreaterThan(2_000);
    }

    @Test
    void textsHoldingAnAddedTokenGoToTheLibrary() throws Exception {
        WordPieceEncoder fast = WordPieceEncoder.forTokenizer(tokenizerJson(ModelCard.builtIn("all-minilm-l6-v2")));
        for (String text : List.of("[CLS]", "a [SEP] b", "x[MASK]y", "[PAD]", "the [UNK] token")) {
            assertThat(fast.ids(text)).as(text).isNull();
        }
        assertThat(fast.ids("Café")).isNull();
        assertThat(fast.ids("[cls] is lowercase")).isNotNull(); // added tokens of BERT are not normalized
    }

    @Test
    void piecesLongerThanAPackedWordMatchOnEveryCharacter() throws Exception {
        JsonNode bert = tokenizerJson(ModelCard.builtIn("all-minilm-l6-v2"));
        var vocab = (com.fasterxml.jackson.databind.node.ObjectNode) bert.at("/model/vocab");
        int next = vocab.size();
        String start = "supercalifragilisticexpialidocious"; // 34 chars: 16 packed, 18 in the tails
        vocab.put(start, next);
        vocab.put("##" + "qwertyuiopasdfghjklz", next + 1); // a 20-char continuation
        vocab.put("caf\u00e9x", next + 2); // not ASCII: never matched, not held
        WordPieceEncoder fast = WordPieceEncoder.forTokenizer(bert);
        int cls = fast.ids("")[0];
        int sep = fast.ids("")[1];
        assertThat(fast.ids(start)).containsExactly(cls, next, sep);
        assertThat(fast.ids(start + "qwertyuiopasdfghjklz")).containsExactly(cls, next, next + 1, sep);
        // same first 16 chars and length, another tail: not the long piece
        assertThat(fast.ids("supercalifragilisticexpialidociouz")).doesNotContain(next);
        assertThat(fast.ids("supercalifragili")).doesNotContain(next);

        JsonNode tooLong = tokenizerJson(ModelCard.builtIn("all-minilm-l6-v2"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) tooLong.at("/model/vocab")).put("a".repeat(256), next);
        assertThat(WordPieceEncoder.forTokenizer(tooLong)).isNull();
        JsonNode bigId = tokenizerJson(ModelCard.builtIn("all-minilm-l6-v2"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) bigId.at("/model/vocab")).put("zzzzzz", 1 << 24);
        assertThat(WordPieceEncoder.forTokenizer(bigId)).isNull();
    }

    @Test
    void onlyBertsPipelineGetsTheFastPath() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode bert = tokenizerJson(ModelCard.builtIn("all-minilm-l6-v2"));
        for (String change : List.of("/normalizer/type=Lowercase", "/pre_tokenizer/type=Whitespace",
                "/model/type=BPE", "/normalizer/clean_text=false", "/post_processor/type=RobertaProcessing")) {
            JsonNode other = bert.deepCopy();
            String[] kv = change.split("=");
            String path = kv[0].substring(0, kv[0].lastIndexOf('/'));
            String field = kv[0].substring(kv[0].lastIndexOf('/') + 1);
            com.fasterxml.jackson.databind.node.ObjectNode node =
                    (com.fasterxml.jackson.databind.node.ObjectNode) other.at(path);
            if (kv[1].equals("false")) {
                node.put(field, false);
            } else {
                node.put(field, kv[1]);
            }
            assertThat(WordPieceEncoder.forTokenizer(other)).as(change).isNull();
        }
        assertThat(WordPieceEncoder.forTokenizer(json.readTree("{}"))).isNull();
    }
}
