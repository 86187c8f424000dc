package io.github.flinkinfer.jobs.index;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.flinkinfer.operators.InferenceResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.api.common.serialization.Encoder;

/**
 * Writes each row as the two lines of an OpenSearch/Elasticsearch {@code _bulk} request: an
 * action line {@code {"index":{"_index":..,"_id":..}}} and the document with its vector field.
 * Any part file can be sent as is: {@code curl -H 'Content-Type: application/x-ndjson'
 * --data-binary @part-... host:9200/_bulk}.
 */
public final class OpenSearchBulkEncoder implements Encoder<InferenceResult> {
    private static final long serialVersionUID = 1L;

    private final String index;
    private final String vectorField;
    private transient JsonFactory json;

    public OpenSearchBulkEncoder(String index, String vectorField) {
        this.index = index;
        this.vectorField = vectorField;
    }

    @Override
    public void encode(InferenceResult r, OutputStream stream) throws IOException {
        if (json == null) {
            json = new JsonFactory();
        }
        // one buffer per row, so a row's two lines are written together
        ByteArrayOutputStream buf = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = json.createGenerator(buf, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeObjectFieldStart("index");
            g.writeStringField("_index", index);
            g.writeStringField("_id", r.id);
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
            g.writeStartObject();
            g.writeStringField("id", r.id);
            IndexRows.Ref ref = IndexRows.ref(r);
            g.writeStringField("doc_id", ref.docId());
            writeNullableInt(g, "chunk_index", ref.chunkIndex());
            writeNullableInt(g, "token_start", ref.tokenStart());
            writeNullableInt(g, "token_end", ref.tokenEnd());
            g.writeStringField("content_sha256", ref.contentSha256());
            g.writeStringField("model", r.model);
            g.writeStringField("model_version", r.modelVersion);
            g.writeBooleanField("truncated", r.truncated);
            g.writeArrayFieldStart(vectorField);
            for (float f : r.vector) {
                g.writeNumber(f);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        buf.write('\n');
        buf.writeTo(stream);
    }

    private static void writeNullableInt(JsonGenerator g, String name, Integer v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, v);
        }
    }
}
