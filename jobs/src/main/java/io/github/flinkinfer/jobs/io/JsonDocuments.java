package io.github.flinkinfer.jobs.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
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
    private final ObjectMapper json;

    public JsonDocuments(String idField, String textField, int maxRecordBytes) {
        this(new Fields(idField, textField, maxRecordBytes));
    }

    private JsonDocuments(Fields fields) {
        idField = fields.idField();
        textField = fields.textField();
        int maxRecordBytes = fields.maxRecordBytes();
        JsonFactory factory =
                JsonFactory.builder()
                        .streamReadConstraints(
                                StreamReadConstraints.builder()
                                        .maxStringLength(maxRecordBytes)
                                        .maxNestingDepth(64)
                                        .build())
                        .build();
        this.json = JsonMapper.builder(factory).build();
    }

    /**
     * Parses one decoded JSON value found at {@code pos}. {@code defaultId} stands in for a missing
     * id (Kafka: {@code topic-partition-offset}); null makes a missing id an error.
     */
    public void parse(String decoded, String pos, String defaultId, Emitter out) {
        if (decoded.isBlank()) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.MALFORMED_JSON, "blank line", 1));
            return;
        }
        JsonNode node;
        try {
            node = json.readTree(decoded);
        } catch (Exception e) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.MALFORMED_JSON,
                    e.getClass().getSimpleName(), 1).withInput(decoded));
            return;
        }
        if (node == null || !node.isObject()) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.NOT_AN_OBJECT,
                    "expected a JSON object", 1).withInput(decoded));
            return;
        }
        JsonNode id = node.get(idField);
        String idText;
        if (id == null || id.isNull()) {
            if (defaultId == null) {
                out.error(ErrorRecord.of(null, pos, ErrorReason.MISSING_ID,
                        absent(idField, id), 1).withInput(decoded));
                return;
            }
            idText = defaultId;
        } else if (!id.isTextual() && !id.isIntegralNumber()) {
            out.error(ErrorRecord.of(null, pos, ErrorReason.INVALID_ID,
                    "'" + idField + "' must be a string or integer", 1).withInput(decoded));
            return;
        } else {
            idText = id.asText();
        }
        JsonNode text = node.get(textField);
        if (text == null || text.isNull()) {
            out.error(ErrorRecord.of(idText, pos, ErrorReason.MISSING_TEXT,
                    absent(textField, text), 1).withInput(decoded));
            return;
        }
        if (!text.isTextual()) {
            out.error(ErrorRecord.of(idText, pos, ErrorReason.NON_STRING_TEXT,
                    "'" + textField + "' is " + text.getNodeType(), 1).withInput(decoded));
            return;
        }
        checkText(idText, pos, text.asText(), out);
    }

    /** Why a field is missing: not there, or there with the value null. */
    private static String absent(String field, JsonNode value) {
        return value == null ? "no '" + field + "' field" : "'" + field + "' is null";
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

    /** Strict UTF-8: malformed bytes throw instead of being replaced. */
    public static String decodeUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }
}
