package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JSON parse rules, read in one streaming pass: each line's one outcome (a document, or an
 * error reason and message) is what reading the whole value as a tree gave before 2026-12-06,
 * checked then on 110,000 fuzzed lines of the scale corpus (docs/benchmarks/id-pass-parse-2026-12-06.md).
 */
class JsonDocumentsTest {
    private final JsonDocuments parser = new JsonDocuments("id", "text", 1 << 20);

    private List<String> parse(String line, String defaultId) {
        List<String> outcomes = new ArrayList<>();
        parser.parse(line, "f@0", defaultId, new JsonDocuments.Emitter() {
            @Override
            public void document(Document d) {
                outcomes.add("document " + d.id + " " + d.text);
            }

            @Override
            public void error(ErrorRecord e) {
                outcomes.add(e.reason + " " + e.id + " " + e.message);
            }
        });
        assertThat(outcomes).as("one outcome per line").hasSize(1);
        return outcomes;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // documents: ids as a tree writes them, the last of a repeated field, trailing content unread
        "{\"id\":\"a\",\"text\":\"é✓\"}                       | document a é✓",
        "{\"id\":12345678901234567890123,\"text\":\"x\"}      | document 12345678901234567890123 x",
        "{\"id\":-0,\"text\":\"x\"}                           | document 0 x",
        "{\"id\":\"a\",\"text\":\"x\",\"id\":\"b\"}           | document b x",
        "{\"text\":\"x\",\"id\":1,\"more\":{\"a\":[1,{\"b\":null}]}} | document 1 x",
        "` {\"id\":\"a\",\"text\":\"b\"} trailing`            | document a b",
        "{\"id\":\"a\",\"text\":\"b\"}{\"x\"                  | document a b",
        "{\"id\":\"a\",\"text\":\"b\",\"f\":1e999}            | document a b",
        // what is not JSON, or not read to its end, is malformed
        "{\"id\":\"a\",\"text\":\"b\",}                       | malformed_json null JsonParseException",
        "{\"id\":\"a\",\"text\":\"b\"                         | malformed_json null JsonEOFException",
        "{\"id\":\"a\",\"text\":\"b                           | malformed_json null JsonEOFException",
        "{\"id\":\"a\",\"n\":[1,{\"x\":]},\"text\":\"b\"}     | malformed_json null JsonParseException",
        "\"unterminated                                       | malformed_json null JsonEOFException",
        "[1,2                                                 | malformed_json null JsonEOFException",
        "{'id':'a'}                                           | malformed_json null JsonParseException",
        "{\"id\":\"a\",\"text\":\"b\",\"f\":NaN}              | malformed_json null JsonParseException",
        "{\"id\":\"a\",\"text\":\"b\",\"f\":01}               | malformed_json null JsonParseException",
        // values that are not objects
        "[1,2]                                                | not_an_object null expected a JSON object",
        "\"a string\"                                         | not_an_object null expected a JSON object",
        "null                                                 | not_an_object null expected a JSON object",
        // ids
        "{\"text\":\"a\"}                                     | missing_id null no 'id' field",
        "{\"id\":null,\"text\":\"a\"}                         | missing_id null 'id' is null",
        "{\"id\":1.0,\"text\":\"a\"}                          | invalid_id null 'id' must be a string or integer",
        "{\"id\":{\"x\":1},\"text\":\"a\"}                    | invalid_id null 'id' must be a string or integer",
        "{\"id\":\"a\",\"id\":true,\"text\":\"a\"}            | invalid_id null 'id' must be a string or integer",
        // texts
        "{\"id\":\"a\"}                                       | missing_text a no 'text' field",
        "{\"id\":\"a\",\"text\":null}                         | missing_text a 'text' is null",
        "{\"id\":\"a\",\"text\":5.5}                          | non_string_text a 'text' is NUMBER",
        "{\"id\":\"a\",\"text\":true}                         | non_string_text a 'text' is BOOLEAN",
        "{\"id\":\"a\",\"text\":{\"b\":1}}                    | non_string_text a 'text' is OBJECT",
        "{\"id\":\"a\",\"text\":\"x\",\"text\":[1]}           | non_string_text a 'text' is ARRAY",
        "{\"id\":\"a\",\"text\":\"  \"}                       | empty_text a text is empty or whitespace",
        "{\"id\":\"a\",\"text\":\"x\\u0000y\"}                | nul_character a text contains a NUL character",
    })
    void eachLineHasTheOutcomeATreeGave(String line, String outcome) {
        assertThat(parse(line, null)).containsExactly(outcome);
    }

    @Test
    void aDefaultIdStandsInForAMissingOne() {
        assertThat(parse("{\"text\":\"x\"}", "topic-0-7")).containsExactly("document topic-0-7 x");
        assertThat(parse("{\"id\":null,\"text\":\"x\"}", "topic-0-7")).containsExactly("document topic-0-7 x");
    }

    @Test
    void nestingDeeperThanTheLimitIsMalformedWhereverItIs() {
        String deep = "[".repeat(70) + "]".repeat(70);
        assertThat(parse("{\"id\":\"a\",\"n\":" + deep + ",\"text\":\"b\"}", null))
                .containsExactly("malformed_json null StreamConstraintsException");
        String fine = "[".repeat(60) + "]".repeat(60);
        assertThat(parse("{\"id\":\"a\",\"n\":" + fine + ",\"text\":\"b\"}", null)).containsExactly("document a b");
    }

    /** The strict decoder alone, as decodeUtf8 was before its fast path: the reference. */
    private static String strictly(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    private static String outcome(ThrowingDecode decode, byte[] bytes) {
        try {
            return "ok " + decode.apply(bytes);
        } catch (CharacterCodingException e) {
            return "invalid";
        }
    }

    private interface ThrowingDecode {
        String apply(byte[] bytes) throws CharacterCodingException;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "6869", // ASCII
        "c3a9", // é, two bytes
        "e282ac", // €, three bytes
        "f09f9880", // an emoji, four bytes: a surrogate pair
        "efbfbd", // U+FFFD in the input: valid, decoded again strictly, same string
        "41efbfbd42",
        "80", // a lone continuation byte
        "c3", // truncated
        "e282", // truncated
        "c0af", // overlong
        "eda080", // a UTF-16 surrogate encoded in UTF-8
        "f4908080", // above U+10FFFF
        "ff",
        "41ff42efbfbd",
    })
    void decodingIsStrictUtf8(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        assertThat(outcome(JsonDocuments::decodeUtf8, bytes)).isEqualTo(outcome(JsonDocumentsTest::strictly, bytes));
    }

    @Test
    void decodingAgreesWithTheStrictDecoderOnRandomBytes() {
        Random random = new Random(38);
        byte[] alphabet = HexFormat.of().parseHex("41207a7f80bfc2c3dfe0e2edeff0f4f5ffbdbf");
        int invalid = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(12)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = alphabet[random.nextInt(alphabet.length)];
            }
            String expected = outcome(JsonDocumentsTest::strictly, bytes);
            assertThat(outcome(JsonDocuments::decodeUtf8, bytes)).as(HexFormat.of().formatHex(bytes)).isEqualTo(expected);
            invalid += expected.equals("invalid") ? 1 : 0;
        }
        assertThat(invalid).as("both kinds of input were tried").isBetween(1_000, 19_000);
    }
}
