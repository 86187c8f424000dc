package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.io.IOException;
import java.util.List;
import java.util.Map;
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
 * The embedding writer as it was before {@link EmbeddingPages}: parquet-java's record API ({@link
 * ParquetWriter} with a {@link WriteSupport} that feeds the record consumer field by field, one
 * float at a time), same schema and footer, dictionary pages for the repeating strings. Kept in the
 * tests as the reference the page writer's files are compared with ({@code
 * EmbeddingParquetWriterTest}) and as {@code ParquetWriteRounds}' variants.
 */
final class RecordApiParquetWriter implements BulkWriter.Factory<InferenceResult> {
    private static final long serialVersionUID = 1L;

    /** The columns whose values repeat across rows: dictionary-encoded. */
    static final List<String> DICTIONARY_COLUMNS = List.of("model", "model_version", "embed_settings");

    private final CompressionCodecName codec;
    private final boolean byteStreamSplit;
    private final boolean dictionary;
    private final boolean vectorStatistics;

    RecordApiParquetWriter() {
        this(CompressionCodecName.ZSTD, true, true, false);
    }

    /** With other encodings, for {@code ParquetWriteRounds} to compare. */
    RecordApiParquetWriter(CompressionCodecName codec, boolean byteStreamSplit, boolean dictionary,
            boolean vectorStatistics) {
        this.codec = codec;
        this.byteStreamSplit = byteStreamSplit;
        this.dictionary = dictionary;
        this.vectorStatistics = vectorStatistics;
    }


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
            withStatisticsEnabled(EmbeddingParquetWriter.VECTOR_COLUMN, vectorStatistics);
            withSizeStatisticsEnabled(EmbeddingParquetWriter.VECTOR_COLUMN, vectorStatistics);
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

    /** One row per result, field by field in {@link EmbeddingParquetWriter#SCHEMA}'s order. */
    static final class Rows extends WriteSupport<InferenceResult> {
        private final MessageType schema = new AvroSchemaConverter().convert(EmbeddingParquetWriter.SCHEMA);
        private RecordConsumer rows;

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, Map.of("parquet.avro.schema", EmbeddingParquetWriter.SCHEMA.toString(),
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
