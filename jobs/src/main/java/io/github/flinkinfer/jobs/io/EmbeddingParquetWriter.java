package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.formats.parquet.ParquetWriterFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroSchemaConverter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
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
 * <p>The rows go straight to Parquet's record consumer: the floats are written as floats, with
 * no Avro record and no boxed {@code Float} per element (the Avro path's list writer was the
 * largest part of the job's write time in the benchmark's JFR profile). The file is what the
 * Avro writer wrote before: the Parquet schema is {@link #SCHEMA} converted by parquet-avro, and
 * the Avro schema is in the footer ({@code parquet.avro.schema}), so Avro readers see the same
 * records.
 *
 * <p>Encodings, measured on the sample ({@code ParquetWriteRounds}, docs/benchmarks/host-path.md):
 * the embedding floats {@code BYTE_STREAM_SPLIT} (their exponent bytes, side by side, compress),
 * pages ZSTD-compressed, dictionary encoding only for the columns that repeat ({@code model},
 * {@code model_version}, {@code embed_settings}); floats are stored as written, bit for bit. The
 * embedding column keeps no min/max or level-histogram statistics: no reader prunes on an
 * embedding's min/max, and they cost about 1 µs per row (5% of the write).
 */
public final class EmbeddingParquetWriter implements BulkWriter.Factory<InferenceResult> {
    private static final long serialVersionUID = 1L;

    /** The columns whose values repeat across rows: dictionary-encoded. */
    static final List<String> DICTIONARY_COLUMNS = List.of("model", "model_version", "embed_settings");
    /** The embedding floats' column (parquet-avro's two-level list). */
    static final String VECTOR_COLUMN = "embedding.array";

    private final CompressionCodecName codec;
    private final boolean byteStreamSplit;
    private final boolean dictionary;
    private final boolean vectorStatistics;

    public EmbeddingParquetWriter() {
        this(CompressionCodecName.ZSTD, true, true, false);
    }

    /** With other encodings, for {@code ParquetWriteRounds} to compare. */
    EmbeddingParquetWriter(CompressionCodecName codec, boolean byteStreamSplit, boolean dictionary,
            boolean vectorStatistics) {
        this.codec = codec;
        this.byteStreamSplit = byteStreamSplit;
        this.dictionary = dictionary;
        this.vectorStatistics = vectorStatistics;
    }

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

    @Override
    public BulkWriter<InferenceResult> create(FSDataOutputStream out) throws IOException {
        CompressionCodecName c = codec;
        boolean split = byteStreamSplit;
        boolean dict = dictionary;
        boolean stats = vectorStatistics;
        return new ParquetWriterFactory<InferenceResult>(file -> new Builder(file, c, split, dict, stats).build())
                .create(out);
    }

    private static final class Builder extends ParquetWriter.Builder<InferenceResult, Builder> {
        Builder(OutputFile file, CompressionCodecName codec, boolean byteStreamSplit, boolean dictionary,
                boolean vectorStatistics) {
            super(file);
            withStatisticsEnabled(VECTOR_COLUMN, vectorStatistics);
            withSizeStatisticsEnabled(VECTOR_COLUMN, vectorStatistics);
            withDictionaryEncoding(false);
            for (String column : DICTIONARY_COLUMNS) {
                withDictionaryEncoding(column, dictionary);
            }
            withByteStreamSplitEncoding(byteStreamSplit);
            withCompressionCodec(codec);
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<InferenceResult> getWriteSupport(Configuration conf) {
            return new Rows();
        }
    }

    /** One row per result, field by field in {@link #SCHEMA}'s order. */
    static final class Rows extends WriteSupport<InferenceResult> {
        private final MessageType schema = new AvroSchemaConverter().convert(SCHEMA);
        private RecordConsumer rows;

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, Map.of("parquet.avro.schema", SCHEMA.toString(),
                    "writer.model.name", "flink-inference"));
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.rows = recordConsumer;
        }

        @Override
        public void write(InferenceResult r) {
            ChunkRef c = r.chunk;
            boolean chunked = c != null && c.chunked();
            rows.startMessage();
            string(0, "id", r.id);
            rows.startField("embedding", 1);
            rows.startGroup();
            if (r.vector.length > 0) {
                rows.startField("array", 0);
                for (float f : r.vector) {
                    rows.addFloat(f);
                }
                rows.endField("array", 0);
            }
            rows.endGroup();
            rows.endField("embedding", 1);
            string(2, "model", r.model);
            string(3, "model_version", r.modelVersion);
            integer(4, "token_count", r.tokenCount);
            integer(5, "original_token_count", r.originalTokenCount);
            rows.startField("truncated", 6);
            rows.addBoolean(r.truncated);
            rows.endField("truncated", 6);
            string(7, "source", r.source);
            string(8, "doc_id", c == null ? r.id : c.docId);
            if (chunked) {
                integer(9, "chunk_index", c.chunkIndex);
                integer(10, "chunk_count", c.chunkCount);
                integer(11, "token_start", c.tokenStart);
                integer(12, "token_end", c.tokenEnd);
            }
            if (c != null) {
                string(13, "content_sha256", c.contentSha256);
                string(14, "embed_settings", c.settings);
            }
            rows.endMessage();
        }

        /** A string field; null leaves an optional field empty. */
        private void string(int index, String name, String value) {
            if (value != null) {
                rows.startField(name, index);
                rows.addBinary(Binary.fromString(value));
                rows.endField(name, index);
            }
        }

        private void integer(int index, String name, int value) {
            rows.startField(name, index);
            rows.addInteger(value);
            rows.endField(name, index);
        }
    }
}
