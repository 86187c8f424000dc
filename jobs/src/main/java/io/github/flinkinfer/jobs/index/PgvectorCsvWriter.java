package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.operators.InferenceResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * CSV that PostgreSQL with pgvector loads with {@code COPY ... FROM ... WITH (FORMAT csv,
 * HEADER)}: a header line per part file, fields quoted per RFC 4180 when needed, the embedding
 * as a quoted vector literal {@code "[0.1,0.2,...]"}, and empty (unquoted) fields for NULL. See
 * docs/search-index.md for the table definition.
 */
public final class PgvectorCsvWriter implements BulkWriter.Factory<InferenceResult> {
    private static final long serialVersionUID = 1L;

    public static final String HEADER =
            "id,doc_id,chunk_index,token_start,token_end,content_sha256,model,model_version,truncated,embedding";

    @Override
    public BulkWriter<InferenceResult> create(FSDataOutputStream out) throws IOException {
        out.write((HEADER + "\n").getBytes(StandardCharsets.UTF_8));
        return new BulkWriter<>() {
            @Override
            public void addElement(InferenceResult r) throws IOException {
                write(out, row(r));
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void finish() throws IOException {
                out.flush();
            }
        };
    }

    /** One CSV line, without the line break. */
    public static String row(InferenceResult r) {
        IndexRows.Ref ref = IndexRows.ref(r);
        StringBuilder sb = new StringBuilder(r.vector.length * 12 + 200);
        sb.append(field(r.id)).append(',')
                .append(field(ref.docId())).append(',')
                .append(field(ref.chunkIndex())).append(',')
                .append(field(ref.tokenStart())).append(',')
                .append(field(ref.tokenEnd())).append(',')
                .append(field(ref.contentSha256())).append(',')
                .append(field(r.model)).append(',')
                .append(field(r.modelVersion)).append(',')
                .append(r.truncated).append(',')
                .append('"').append(vectorLiteral(r.vector)).append('"');
        return sb.toString();
    }

    /** pgvector's text form: {@code [0.1,0.2,...]}; floats in Java's shortest round-trip form. */
    public static String vectorLiteral(float[] v) {
        StringBuilder sb = new StringBuilder(v.length * 12 + 2).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Float.toString(v[i]));
        }
        return sb.append(']').toString();
    }

    /** A CSV field: empty for null, quoted (quotes doubled) when it holds , " CR LF or is empty. */
    static String field(Object value) {
        if (value == null) {
            return "";
        }
        String s = value.toString();
        if (s.isEmpty() || s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0
                || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    private static void write(OutputStream out, String line) throws IOException {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
    }
}
