package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.io.JsonDocuments;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.charset.CharacterCodingException;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns Kafka values into {@link Document}s with the JSONL rules ({@link JsonDocuments}); the id
 * defaults to {@code topic-partition-offset}. Failures go to {@link Outputs#ERRORS} with source
 * {@code topic-partition@offset}: {@code record_too_large}, {@code invalid_utf8}, {@code
 * malformed_json} (also tombstones), {@code not_an_object}, {@code invalid_id}, {@code
 * missing_text}, {@code non_string_text}, {@code empty_text}, {@code nul_character}.
 */
public class KafkaRecordParser extends ProcessFunction<KafkaRecord, Document> {
    private final JsonDocuments.Fields fields;
    private transient JsonDocuments json;

    public KafkaRecordParser(String idField, String textField, int maxRecordBytes) {
        this.fields = new JsonDocuments.Fields(idField, textField, maxRecordBytes);
    }

    @Override
    public void open(OpenContext ctx) {
        json = fields.parser();
    }

    @Override
    public void processElement(KafkaRecord r, Context ctx, Collector<Document> out) {
        String pos = r.position();
        if (r.oversized) {
            ctx.output(Outputs.ERRORS, ErrorRecord.of(null, pos, ErrorReason.RECORD_TOO_LARGE,
                    r.valueLength + " bytes > max record size " + fields.maxRecordBytes(), 1));
            return;
        }
        if (r.value == null) {
            ctx.output(Outputs.ERRORS, ErrorRecord.of(null, pos, ErrorReason.MALFORMED_JSON,
                    "null value (tombstone)", 1));
            return;
        }
        String decoded;
        try {
            decoded = JsonDocuments.decodeUtf8(r.value);
        } catch (CharacterCodingException e) {
            ctx.output(Outputs.ERRORS, ErrorRecord.of(null, pos, ErrorReason.INVALID_UTF8,
                    "value is not valid UTF-8", 1).withInput(r.value));
            return;
        }
        json.parse(decoded, pos, r.defaultId(),
                JsonDocuments.Emitter.of(out, e -> ctx.output(Outputs.ERRORS, e)));
    }
}
