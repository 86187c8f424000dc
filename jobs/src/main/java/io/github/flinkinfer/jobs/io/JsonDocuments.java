package io.github.flinkinfer.jobs.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.flink.util.Collector;

/**
 * The parse rules every JSON input shares (JSONL lines, Kafka values): one JSON object becomes
 * one {@link Document}, anything else one {@link ErrorRecord} with stage {@code parse} and a
 * reason from docs/errors.md. Not serializable: build it in a function's {@code open()}.
 */
public final class JsonDocuments {
    /** Where a parse ends: a document, or an error. */
    public interface Emitter {
        void document(Document d);

        void error(ErrorRecord e);

        /** Documents to {@code out}, errors to {@code errors} (a function's errors side output). */
        static Emitter of(Collector<Document> out, Consumer<ErrorRecord> errors) {
            return new Emitter() {
                @Override
                public void document(Document d) {
                    out.collect(d);
                }

                @Override
                public void error(ErrorRecord e) {
                    errors.accept(e);
                }
            };
        }
    }

    /** What a parsing function is configured with; it builds its parser in {@code open()}. */
    public record Fields(String idField, String textField, int maxRecordBytes) implements Serializable {
        public JsonDocuments parser() {
            return new JsonDocuments(this);
        }
    }

    private final String idField;
    private final String textField;
    private final JsonFactory json;

    public JsonDocuments(String idField, String textField, int maxRecordBytes) {
        this(new Fields(idField, textField, maxRecordBytes));
    }

    private JsonDocuments(Fields fields) {
        idField = fields.idField();
        textField = fields.textField();
        int maxRecordBytes = fields.maxRecordBytes();
        this.json =
                JsonFactory.builder()
                        .streamReadConstraints(
                                StreamReadConstraints.builder()
                                        .maxStringLength(maxRecordBytes)
                                        .maxNestingDepth(64)
                                        .build())
                        .build();
    }

    /**
     * Parses one decoded JSON value found at {@code pos}. {@code defaultId} stands in for a missing
     * id (Kafka: {@code topic-partition-offset}); null makes a missing id an error.
     *
     * <p>One pass of Jackson's streaming parser, no tree: the value is read to its end (so any
     * malformed part of it is an error, as a tree would find), only the id and text fields'
     * values are kept (the last of a repeated field, as a tree keeps), every other value is
     * skipped unbuilt, and what follows the value is not read (as {@code ObjectMapper.readTree}).
     */
    public void parse(String decoded, String pos, String defaultId, Emitter out) {
        if (decoded.isBlank()) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.MALFORMED_JSON, "blank line", 1));
            return;
        }
        Field id = new Field();
        Field text = new Field();
        boolean object;
        try (JsonParser p = json.createParser(decoded)) {
            JsonToken t = p.nextToken();
            object = t == JsonToken.START_OBJECT;
            if (object) {
                String name;
                while ((name = p.nextFieldName()) != null) {
                    JsonToken v = p.nextToken();
                    if (name.equals(idField)) {
                        id.read(p, v);
                    }
                    if (name.equals(textField)) { // also where it names the id's field
                        text.read(p, v);
                    }
                    p.skipChildren(); // an object or array: read to its end, never built
                }
            } else {
                p.skipChildren();
                p.finishToken(); // a scalar read to its end: an unterminated string is malformed
            }
        } catch (Exception e) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.MALFORMED_JSON,
                    e.getClass().getSimpleName(), 1).withInput(decoded));
            return;
        }
        if (!object) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.NOT_AN_OBJECT,
                    "expected a JSON object", 1).withInput(decoded));
            return;
        }
        String idText;
        if (id.absent()) {
            if (defaultId == null) {
                out.error(ErrorRecord.of(null, pos, ErrorReason.MISSING_ID,
                        absent(idField, id), 1).withInput(decoded));
                return;
            }
            idText = defaultId;
        } else if (id.token != JsonToken.VALUE_STRING && id.token != JsonToken.VALUE_NUMBER_INT) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.INVALID_ID,
                    "'" + idField + "' must be a string or integer", 1).withInput(decoded));
            return;
        } else {
            idText = id.value;
        }
        if (text.absent()) {
            out.error(ErrorRecord.of(idText, pos, ErrorReason.MISSING_TEXT,
                    absent(textField, text), 1).withInput(decoded));
            return;
        }
        if (text.token != JsonToken.VALUE_STRING) {
            out.error(ErrorRecord.of(idText, pos, ErrorReason.NON_STRING_TEXT,
                    "'" + textField + "' is " + text.nodeType(), 1).withInput(decoded));
            return;
        }
        checkText(idText, pos, text.value, out);
    }

    /** The last value of one field of the object: its first token, and its text where it is a string or integer. */
    private static final class Field {
        JsonToken token;
        String value;

        void read(JsonParser p, JsonToken t) throws IOException {
            token = t;
            // an integer as a tree writes it (Integer, Long or BigInteger), a string as it is
            value = t == JsonToken.VALUE_STRING ? p.getText()
                    : t == JsonToken.VALUE_NUMBER_INT ? p.getNumberValue().toString() : null;
        }

        /** Not there, or there with the value null. */
        boolean absent() {
            return token == null || token == JsonToken.VALUE_NULL;
        }

        /** The value's kind as a tree names it ({@code JsonNodeType}). */
        String nodeType() {
            return switch (token) {
                case START_OBJECT -> JsonNodeType.OBJECT.name();
                case START_ARRAY -> JsonNodeType.ARRAY.name();
                case VALUE_TRUE, VALUE_FALSE -> JsonNodeType.BOOLEAN.name();
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> JsonNodeType.NUMBER.name();
                default -> token.name();
            };
        }
    }

    /** Why a field is missing: not there, or there with the value null. */
    private static String absent(String field, Field value) {
        return value.token == null ? "no '" + field + "' field" : "'" + field + "' is null";
    }

    /** The text rules of every format ({@link Document#problemWith}): not empty or whitespace, no NUL character. */
    public static void checkText(String id, String pos, String text, Emitter out) {
        ErrorReason problem = text == null ? ErrorReason.EMPTY_TEXT : Document.problemWith(text);
        if (problem == null) {
            out.document(new Document(id, text, pos));
        } else {
            out.error(ErrorRecord.of(id, pos, problem, problem == ErrorReason.NUL_CHARACTER
                    ? "text contains a NUL character" : "text is empty or whitespace", 1).withInput(text));
        }
    }

    /**
     * Strict UTF-8: malformed bytes throw instead of being replaced. Decoded first by {@code new
     * String} (the JDK's fast path, a copy for ASCII), which replaces malformed bytes with U+FFFD:
     * only a string holding U+FFFD (malformed, or a U+FFFD of the input) is decoded again by the
     * strict decoder, so valid input gives the same string either way and malformed input still
     * throws. The strict decoder alone was a fifth of a JSONL reader's time (a new decoder and
     * buffer per record).
     */
    public static String decodeUtf8(byte[] bytes) throws CharacterCodingException {
        String fast = new String(bytes, StandardCharsets.UTF_8);
        return fast.indexOf('\uFFFD') < 0 ? fast : decodeUtf8Strictly(bytes);
    }

    private static String decodeUtf8Strictly(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }
}
