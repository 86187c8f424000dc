package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.InferenceResult;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.schema.MessageType;

/**
 * Writes {@link InferenceResult}s as Parquet rows: {@code id, embedding (list<float>), model,
 * model_version, token_count, original_token_count, truncated, source}, then the search-index
 * columns {@code doc_id, chunk_index, chunk_count, token_start, token_end, content_sha256,
 * embed_settings}: {@code doc_id} always, {@code content_sha256} and {@code embed_settings}
 * whenever the row carries its document's chunk reference (the incremental-run cache key), chunk
 * index/count and token offsets only for chunked rows (null otherwise). The float list is the
 * column vector engines ingest (DuckDB {@code FLOAT[]}, Lucene, pandas).
 *
 * <p>The Parquet schema is {@link #SCHEMA} converted by parquet-avro (a two-level list), and the
 * Avro schema is in the footer ({@code parquet.avro.schema}), so Avro readers see the same records
 * as from parquet-avro's own writer. The pages are encoded by {@link EmbeddingPages}: the
 * embedding floats {@code BYTE_STREAM_SPLIT} (their exponent bytes, side by side, compress), the
 * other columns {@code PLAIN}, every page ZSTD-compressed; floats are stored as written, bit for
 * bit. The embedding column keeps no min/max statistics: no reader prunes on an embedding's
 * min/max. Measured against parquet-java's record API in {@code ParquetWriteRounds}
 * (docs/benchmarks/host-path.md).
 */
public final class EmbeddingParquetWriter implements BulkWriter.Factory<InferenceResult> {
    private static final long serialVersionUID = 1L;

    /** The embedding floats' column (parquet-avro's two-level list). */
    static final String VECTOR_COLUMN = "embedding.array";

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

    /** {@link #SCHEMA} as Parquet columns. */
    static final MessageType PARQUET_SCHEMA = new AvroSchemaConverter().convert(SCHEMA);
    /** The footer's key-value metadata. */
    static final Map<String, String> FOOTER = Map.of("parquet.avro.schema", SCHEMA.toString(),
            "writer.model.name", "flink-inference");

    @Override
    public BulkWriter<InferenceResult> create(FSDataOutputStream out) throws IOException {
        return new EmbeddingPages(out, PARQUET_SCHEMA, FOOTER);
    }
}
