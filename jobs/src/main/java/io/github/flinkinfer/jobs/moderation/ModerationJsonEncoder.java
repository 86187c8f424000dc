package io.github.flinkinfer.jobs.moderation;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.api.common.serialization.Encoder;

/**
 * One JSON line per verdict, with the scores as an object keyed by label:
 *
 * <pre>{@code
 * {"id":"m1","label":"spam","score":0.97,"scores":{"ham":0.03,"spam":0.97},"flagged":true,...}
 * }</pre>
 */
public final class ModerationJsonEncoder implements Encoder<ModerationResult> {
    private static final long serialVersionUID = 1L;
    private transient JsonFactory json;

    @Override
    public void encode(ModerationResult r, OutputStream stream) throws IOException {
        if (json == null) {
            json = new JsonFactory();
        }
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        try (JsonGenerator g = json.createGenerator(line, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("id", r.id);
            g.writeStringField("label", r.label);
            g.writeNumberField("score", r.score);
            g.writeObjectFieldStart("scores");
            for (int i = 0; i < r.labels.length; i++) {
                g.writeNumberField(r.labels[i], r.scores[i]);
            }
            g.writeEndObject();
            g.writeBooleanField("flagged", r.flagged);
            g.writeArrayFieldStart("flagged_labels");
            for (String l : r.flaggedLabels) {
                g.writeString(l);
            }
            g.writeEndArray();
            g.writeStringField("model", r.model);
            g.writeStringField("model_version", r.modelVersion);
            g.writeNumberField("token_count", r.tokenCount);
            g.writeBooleanField("truncated", r.truncated);
            g.writeStringField("source", r.source);
            if (r.chunkCount > 0) {
                g.writeNumberField("chunk_count", r.chunkCount);
                g.writeNumberField("deciding_chunk", r.decidingChunk);
                g.writeNumberField("deciding_token_start", r.decidingTokenStart);
                g.writeNumberField("deciding_token_end", r.decidingTokenEnd);
            }
            g.writeEndObject();
        }
        line.write('\n');
        line.writeTo(stream);
    }
}
