package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.InferenceResult;
import java.util.AbstractList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;

/**
 * Writes {@link InferenceResult}s as Parquet rows: {@code id, embedding (list<float>), model,
 * model_version, token_count, original_token_count, truncated, source}, then the search-index
 * columns {@code doc_id, chunk_index, chunk_count, token_start, token_end, content_sha256,
 * embed_settings} (see {@link IndexColumns}). The float list is the
 * column vector engines ingest (DuckDB {@code FLOAT[]}, Lucene, pandas).
 */
public final class EmbeddingParquetWriter extends AvroParquetRowWriter<InferenceResult> {
    private static final long serialVersionUID = 1L;

    public static final Schema SCHEMA =
            SchemaBuilder.record("Embedding")
                    .namespace("io.github.flinkinfer")
                    .fields()
                    .requiredString("id")
                    .name("embedding").type().array().items().floatType().noDefault()
                    .requiredString("model")
                    .requiredString("model_version")
                    .requiredInt("token_count")
                    .requiredInt("original_token_count")
                    .requiredBoolean("truncated")
                    .optionalString("source")
                    // search-index columns (docs/search-index.md); chunk ones are null unless chunked
                    .optionalString("doc_id")
                    .optionalInt("chunk_index")
                    .optionalInt("chunk_count")
                    .optionalInt("token_start")
                    .optionalInt("token_end")
                    .optionalString("content_sha256")
                    .optionalString("embed_settings")
                    .endRecord();

    public EmbeddingParquetWriter() {
        super(SCHEMA);
    }

    @Override
    protected void fill(GenericData.Record rec, InferenceResult r) {
        rec.put("id", r.id);
        rec.put("embedding", floats(r.vector));
        rec.put("model", r.model);
        rec.put("model_version", r.modelVersion);
        rec.put("token_count", r.tokenCount);
        rec.put("original_token_count", r.originalTokenCount);
        rec.put("truncated", r.truncated);
        rec.put("source", r.source);
        IndexColumns.put(rec, r);
    }

    /** A list view over the array, so no copy is made before Parquet encodes it. */
    private static List<Float> floats(float[] v) {
        return new AbstractList<>() {
            @Override
            public Float get(int i) {
                return v[i];
            }

            @Override
            public int size() {
                return v.length;
            }
        };
    }
}
