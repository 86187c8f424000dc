package io.github.flinkinfer.jobs.io;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;

import com.github.luben.zstd.Zstd;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.api.common.serialization.BulkWriter;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One Parquet file of {@link EmbeddingParquetWriter#SCHEMA} rows, its data pages encoded here a
 * whole page at a time and handed to parquet-java's {@link ParquetFileWriter} (file layout, page
 * headers and checksums, statistics, column and offset indexes, footer). parquet-java's record
 * API writes a vector one float at a time through its record consumer, column writer, two level
 * encoders and a byte-stream-split writer: 20 µs per 384-float row at best on the benchmark
 * machine, and 50–100 µs for its first 100,000 rows while the JIT compiles that path, which is
 * all of a keep-first run's tail. Here a row's floats are one array copy; the page's levels and
 * byte streams are built when the page ends.
 *
 * <p>Pages (format v1): {@code BYTE_STREAM_SPLIT} floats; {@code PLAIN} strings, integers and
 * booleans; repetition and definition levels as RLE runs (every level of this schema is 0 or 1);
 * each page ZSTD-compressed in one zstd-jni call ({@link Zstd#compressByteArray}; parquet-java's
 * codec opened a compression stream, and its native context, per page and column, 1.5 times the
 * CPU per row: docs/benchmarks/fixture-2026-12-06.md). A page ends at about {@link #PAGE_BYTES} of
 * floats (all columns end their pages on the same row), a row group at {@link #ROW_GROUP_BYTES}
 * of compressed pages, as parquet-java's defaults, or earlier where the JVM's open writers would
 * hold more than their share of the heap ({@link RowGroupBudget}). Statistics as before: min/max and null counts
 * for every column but the embedding.
 *
 * <p>Each column is bound to the schema's by name, once, at construction ({@link Binding}): a
 * schema whose columns are renamed, moved, retyped or added fails there, naming the column, and
 * never writes one column's values under another's name ({@code EmbeddingPagesSchemaTest}).
 */
final class EmbeddingPages implements BulkWriter<InferenceResult> {
    /** Floats per page, in bytes: parquet-java's default page size. */
    static final int PAGE_BYTES = ParquetProperties.DEFAULT_PAGE_SIZE;
    /** Compressed bytes per row group: parquet-java's default block size. */
    static final long ROW_GROUP_BYTES = ParquetWriter.DEFAULT_BLOCK_SIZE;
    /** Rows per page at most, whatever the vectors' size (a zero-length vector is a row too). */
    static final int MAX_PAGE_ROWS = 20_000;
    private static final int ZSTD_LEVEL = 1;

    private final FSDataOutputStream out;
    private final int pageBytes;
    private final long rowGroupBytes;
    private final RowGroupBudget budget;
    private final ParquetFileWriter file;
    /** The compressed page's scratch, at {@link Zstd#compressBound} of the largest page so far. */
    private byte[] compressed = new byte[0];
    private final Map<String, String> footer;
    private final Strings id;
    private final Vectors embedding;
    private final Strings model;
    private final Strings modelVersion;
    private final Ints tokenCount;
    private final Ints originalTokenCount;
    private final Booleans truncated;
    private final Strings source;
    private final Strings docId;
    private final Ints chunkIndex;
    private final Ints chunkCount;
    private final Ints tokenStart;
    private final Ints tokenEnd;
    private final Strings contentSha256;
    private final Strings embedSettings;
    private final List<Column> columns;
    private int pageRows;
    private long groupRows;
    private long groupBytes;

    EmbeddingPages(FSDataOutputStream out, MessageType schema, Map<String, String> footer) throws IOException {
        this(out, schema, footer, PAGE_BYTES, ROW_GROUP_BYTES);
    }

    /** With other page and row group sizes (tests: many of each in a small file). */
    EmbeddingPages(FSDataOutputStream out, MessageType schema, Map<String, String> footer, int pageBytes,
            long rowGroupBytes) throws IOException {
        this(out, schema, footer, pageBytes, rowGroupBytes, RowGroupBudget.JVM);
    }

    /** With the heap budget its row groups share with other writers' (tests: a budget of their own). */
    EmbeddingPages(FSDataOutputStream out, MessageType schema, Map<String, String> footer, int pageBytes,
            long rowGroupBytes, RowGroupBudget budget) throws IOException {
        this.out = out;
        this.budget = budget;
        this.footer = footer;
        this.pageBytes = pageBytes;
        this.rowGroupBytes = rowGroupBytes;
        Binding bind = new Binding(schema);
        id = bind.column("id", BINARY, Strings::new);
        embedding = bind.column(EmbeddingParquetWriter.VECTOR_COLUMN, FLOAT, Vectors::new);
        model = bind.column("model", BINARY, Strings::new);
        modelVersion = bind.column("model_version", BINARY, Strings::new);
        tokenCount = bind.column("token_count", INT32, Ints::new);
        originalTokenCount = bind.column("original_token_count", INT32, Ints::new);
        truncated = bind.column("truncated", BOOLEAN, Booleans::new);
        source = bind.column("source", BINARY, Strings::new);
        docId = bind.column("doc_id", BINARY, Strings::new);
        chunkIndex = bind.column("chunk_index", INT32, Ints::new);
        chunkCount = bind.column("chunk_count", INT32, Ints::new);
        tokenStart = bind.column("token_start", INT32, Ints::new);
        tokenEnd = bind.column("token_end", INT32, Ints::new);
        contentSha256 = bind.column("content_sha256", BINARY, Strings::new);
        embedSettings = bind.column("embed_settings", BINARY, Strings::new);
        columns = bind.all();
        this.file = new ParquetFileWriter(new Output(out), schema, ParquetFileWriter.Mode.CREATE, rowGroupBytes, 0,
                ParquetProperties.DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH,
                ParquetProperties.DEFAULT_STATISTICS_TRUNCATE_LENGTH,
                ParquetProperties.DEFAULT_PAGE_WRITE_CHECKSUM_ENABLED);
        file.start();
        budget.opened(this);
    }

    @Override
    public void addElement(InferenceResult r) throws IOException {
        ChunkRef c = r.chunk;
        boolean chunked = c != null && c.chunked();
        id.add(r.id);
        embedding.add(r.vector);
        model.add(r.model);
        modelVersion.add(r.modelVersion);
        tokenCount.add(r.tokenCount);
        originalTokenCount.add(r.originalTokenCount);
        truncated.add(r.truncated);
        source.add(r.source);
        String doc = c == null ? r.id : c.docId;
        if (doc != null && doc.equals(r.id)) {
            docId.add(id.lastBytes(), doc); // an unchunked row's doc_id is its id: the same bytes
        } else {
            docId.add(doc);
        }
        chunkIndex.add(chunked ? c.chunkIndex : null);
        chunkCount.add(chunked ? c.chunkCount : null);
        tokenStart.add(chunked ? c.tokenStart : null);
        tokenEnd.add(chunked ? c.tokenEnd : null);
        contentSha256.add(c == null ? null : c.contentSha256);
        embedSettings.add(c == null ? null : c.settings);
        if (++pageRows >= MAX_PAGE_ROWS || (long) embedding.floats * Float.BYTES >= pageBytes) {
            endPage();
        }
    }

    private void endPage() throws IOException {
        for (Column c : columns) {
            groupBytes += c.endPage(pageRows, this::compress);
        }
        groupRows += pageRows;
        pageRows = 0;
        if (groupBytes >= budget.bytesPerWriter(rowGroupBytes)) {
            endRowGroup();
        }
    }

    private void endRowGroup() throws IOException {
        file.startBlock(groupRows);
        for (Column c : columns) {
            c.writeChunk(file);
        }
        file.endBlock();
        groupRows = 0;
        groupBytes = 0;
    }

    @Override
    public void flush() throws IOException {
        out.flush(); // rows stay in the open page and row group: Parquet writes whole row groups
    }

    /** {@code page}'s first {@code size} bytes as one ZSTD frame at {@link #ZSTD_LEVEL}, in an array of their own. */
    private byte[] compress(byte[] page, int size) throws IOException {
        long bound = Zstd.compressBound(size);
        if (compressed.length < bound) {
            compressed = new byte[Math.toIntExact(bound)];
        }
        long n = Zstd.compressByteArray(compressed, 0, compressed.length, page, 0, size, ZSTD_LEVEL);
        if (Zstd.isError(n)) {
            throw new IOException("ZSTD could not compress a page of " + size + " bytes: " + Zstd.getErrorName(n));
        }
        return Arrays.copyOf(compressed, (int) n);
    }

    @Override
    public void finish() throws IOException {
        try {
            if (pageRows > 0) {
                endPage();
            }
            if (groupRows > 0) {
                endRowGroup();
            }
            file.end(footer);
        } finally {
            budget.closed(this);
        }
    }

    /** The leaf columns this writer encodes, by dotted path, in the schema's order. */
    List<String> columnNames() {
        return columns.stream().map(c -> path(c.descriptor)).toList();
    }

    private static String path(ColumnDescriptor d) {
        return String.join(".", d.getPath());
    }

    /**
     * Binds the writer's columns to the schema's by name, once, at construction: each named column
     * must be the schema's next one (the file's columns are written in the schema's order), of the
     * physical type this writer encodes, with levels of 0 or 1 (the RLE runs here are one bit wide;
     * only the embedding repeats); and no schema column may be left unwritten. A schema that
     * drifts (a column renamed, moved, retyped, added) fails here, naming the column, instead of
     * writing one column's values under another's name.
     */
    private static final class Binding {
        private final List<ColumnDescriptor> declared;
        private final List<Column> bound = new ArrayList<>();

        Binding(MessageType schema) {
            this.declared = schema.getColumns();
        }

        <C extends Column> C column(String name, PrimitiveTypeName type, Function<ColumnDescriptor, C> kind) {
            List<String> names = declaredNames();
            int at = names.indexOf(name);
            if (at < 0) {
                throw new IllegalStateException("the Parquet writer's column " + name + " is not in the schema "
                        + names);
            }
            ColumnDescriptor d = declared.get(at);
            if (at != bound.size()) {
                throw new IllegalStateException("the Parquet writer's column " + name + " is column " + at
                        + " of the schema, the writer's " + bound.size() + ": schema " + names);
            }
            if (d.getPrimitiveType().getPrimitiveTypeName() != type) {
                throw new IllegalStateException("the Parquet writer's column " + name + " is "
                        + d.getPrimitiveType().getPrimitiveTypeName() + " in the schema, the writer encodes " + type);
            }
            int repetition = name.equals(EmbeddingParquetWriter.VECTOR_COLUMN) ? 1 : 0;
            if (d.getMaxRepetitionLevel() != repetition || d.getMaxDefinitionLevel() > 1) {
                throw new IllegalStateException("the Parquet writer's column " + name + " has repetition/definition"
                        + " levels " + d.getMaxRepetitionLevel() + "/" + d.getMaxDefinitionLevel()
                        + " in the schema, the writer encodes " + repetition + "/0 or " + repetition + "/1");
            }
            C column = kind.apply(d);
            bound.add(column);
            return column;
        }

        /** The bound columns, once every one of the schema's is. */
        List<Column> all() {
            if (bound.size() != declared.size()) {
                throw new IllegalStateException("the schema's column " + path(declared.get(bound.size()))
                        + " has no writer: schema " + declaredNames());
            }
            return List.copyOf(bound);
        }

        private List<String> declaredNames() {
            return declared.stream().map(EmbeddingPages::path).toList();
        }
    }

    /** One leaf column: its open page's values and levels, and the row group's finished pages. */
    private abstract static class Column {
        final ColumnDescriptor descriptor;
        final boolean optional;
        final Bytes values = new Bytes();
        final Levels definitions = new Levels();
        Statistics<?> statistics;
        int pageValues;
        private final List<Page> pages = new ArrayList<>();
        private long chunkValues;

        Column(ColumnDescriptor descriptor) {
            this.descriptor = descriptor;
            this.optional = descriptor.getMaxDefinitionLevel() > 0;
            this.statistics = newStatistics();
        }

        Statistics<?> newStatistics() {
            return Statistics.createStats(descriptor.getPrimitiveType());
        }

        /** A null in an optional column: a definition level 0, no value; refused in a required one. */
        void addNull() {
            if (!optional) {
                throw new IllegalArgumentException("null in the required column " + descriptor.getPrimitiveType().getName());
            }
            definitions.add(0, 1);
            statistics.incrementNumNulls();
            pageValues++;
        }

        /** A present value's level (the value itself is the subclass's). */
        void present() {
            if (optional) {
                definitions.add(1, 1);
            }
            pageValues++;
        }

        /** Repetition levels, then definition levels, each length-prefixed (none at max level 0). */
        void levels(Bytes page) {
            if (optional) {
                definitions.encodeTo(page);
            }
        }

        /** The values as the page stores them (the subclass's encoding). */
        void valuesTo(Bytes page) {
            page.put(values);
        }

        Encoding encoding() {
            return Encoding.PLAIN;
        }

        /** About the encoded page's size, so that its buffer is not copied as it grows. */
        int pageSizeHint() {
            return values.size() + definitions.runs * 6 + 64; // a run: at most 5 header bytes and its level
        }

        /** Encodes and compresses the open page; returns its compressed size. */
        long endPage(int rows, Compressor codec) throws IOException {
            Bytes page = new Bytes(pageSizeHint());
            levels(page);
            valuesTo(page);
            BytesInput compressed = BytesInput.from(codec.compress(page.array(), page.size()));
            pages.add(new Page(compressed, page.size(), pageValues, rows, statistics, encoding()));
            chunkValues += pageValues;
            values.clear();
            definitions.clear();
            pageValues = 0;
            statistics = newStatistics();
            return compressed.size();
        }

        void writeChunk(ParquetFileWriter file) throws IOException {
            file.startColumn(descriptor, chunkValues, CompressionCodecName.ZSTD);
            for (Page p : pages) {
                file.writeDataPage(p.values(), p.uncompressedBytes(), p.bytes(), p.statistics(), p.rows(),
                        Encoding.RLE, Encoding.RLE, p.encoding());
            }
            file.endColumn();
            pages.clear();
            chunkValues = 0;
        }
    }

    /** A page's bytes compressed into an array of their own. */
    @FunctionalInterface
    private interface Compressor {
        byte[] compress(byte[] page, int size) throws IOException;
    }

    private record Page(BytesInput bytes, int uncompressedBytes, int values, long rows, Statistics<?> statistics,
            Encoding encoding) {}

    /**
     * UTF-8 strings: PLAIN (4-byte little-endian length, bytes). A value equal to the row before's
     * (the model's name on every row, an unchunked row's doc_id beside its id) reuses its bytes,
     * and its page's statistics are not updated again: they already hold it.
     */
    private static final class Strings extends Column {
        private String last;
        private byte[] lastBytes;
        private boolean lastInPageStatistics;

        Strings(ColumnDescriptor d) {
            super(d);
        }

        void add(String s) {
            if (s == null) {
                addNull();
            } else if (s == last || s.equals(last)) {
                add(lastBytes, s);
            } else {
                add(s.getBytes(StandardCharsets.UTF_8), s);
            }
        }

        /** {@code s}, whose UTF-8 bytes {@code utf8} are (never changed after). */
        void add(byte[] utf8, String s) {
            values.putIntLE(utf8.length);
            values.put(utf8, 0, utf8.length);
            if (utf8 != lastBytes || !lastInPageStatistics) {
                statistics.updateStats(Binary.fromConstantByteArray(utf8));
                last = s;
                lastBytes = utf8;
                lastInPageStatistics = true;
            }
            present();
        }

        /** The bytes of the value added last (they are the next column's too where it repeats it). */
        byte[] lastBytes() {
            return lastBytes;
        }

        @Override
        long endPage(int rows, Compressor codec) throws IOException {
            lastInPageStatistics = false; // the next page's statistics start empty
            return super.endPage(rows, codec);
        }
    }

    /** 32-bit integers: PLAIN (4 bytes little-endian). */
    private static final class Ints extends Column {
        Ints(ColumnDescriptor d) {
            super(d);
        }

        void add(int v) {
            values.putIntLE(v);
            statistics.updateStats(v);
            present();
        }

        void add(Integer v) {
            if (v == null) {
                addNull();
            } else {
                add(v.intValue());
            }
        }
    }

    /** Booleans: PLAIN (one bit each, least significant first). */
    private static final class Booleans extends Column {
        private int bits;
        private int count;

        Booleans(ColumnDescriptor d) {
            super(d);
        }

        void add(boolean v) {
            if (v) {
                bits |= 1 << count;
            }
            if (++count == 8) {
                values.put((byte) bits);
                bits = 0;
                count = 0;
            }
            statistics.updateStats(v);
            present();
        }

        @Override
        void valuesTo(Bytes page) {
            page.put(values);
            if (count > 0) {
                page.put((byte) bits);
            }
            bits = 0;
            count = 0;
        }
    }

    /**
     * The embedding, a two-level list ({@code repeated float array} in a required group): per row
     * the repetition levels 0, 1, 1, … and definition level 1 for each float, or one 0/0 for an
     * empty vector. Floats {@code BYTE_STREAM_SPLIT}: the page's first bytes of every float, then
     * their second bytes, and so on (little-endian), which lets ZSTD find the exponent bytes'
     * repeats. No statistics (no reader prunes on an embedding's min/max).
     */
    private static final class Vectors extends Column {
        private final Levels repetitions = new Levels();
        private float[] page = new float[1024];
        int floats;

        Vectors(ColumnDescriptor d) {
            super(d);
        }

        @Override
        Statistics<?> newStatistics() {
            return Statistics.noopStats(descriptor.getPrimitiveType());
        }

        void add(float[] v) {
            if (v.length == 0) {
                repetitions.add(0, 1);
                definitions.add(0, 1);
                pageValues++;
                return;
            }
            repetitions.add(0, 1);
            repetitions.add(1, v.length - 1);
            definitions.add(1, v.length);
            if (floats + v.length > page.length) {
                page = Arrays.copyOf(page, Math.max(page.length * 2, floats + v.length));
            }
            System.arraycopy(v, 0, page, floats, v.length);
            floats += v.length;
            pageValues += v.length;
        }

        @Override
        void levels(Bytes out) {
            repetitions.encodeTo(out);
            definitions.encodeTo(out);
        }

        @Override
        int pageSizeHint() {
            return floats * Float.BYTES + (repetitions.runs + definitions.runs) * 6 + 64;
        }

        @Override
        void valuesTo(Bytes out) {
            int n = floats;
            int at = out.reserve(n * Float.BYTES);
            byte[] streams = out.array();
            for (int i = 0; i < n; i++) {
                int bits = Float.floatToRawIntBits(page[i]);
                streams[at + i] = (byte) bits;
                streams[at + n + i] = (byte) (bits >>> 8);
                streams[at + 2 * n + i] = (byte) (bits >>> 16);
                streams[at + 3 * n + i] = (byte) (bits >>> 24);
            }
            repetitions.clear();
            floats = 0;
        }

        @Override
        Encoding encoding() {
            return Encoding.BYTE_STREAM_SPLIT;
        }
    }

    /**
     * Levels of one page as runs of equal values, written as the RLE runs of Parquet's
     * RLE/bit-packing hybrid (bit width 1: every level here is 0 or 1), after a 4-byte length.
     */
    static final class Levels {
        private int[] values = new int[64];
        private int[] counts = new int[64];
        int runs;

        void add(int level, int count) {
            if (count == 0) {
                return;
            }
            if (runs > 0 && values[runs - 1] == level) {
                counts[runs - 1] += count;
                return;
            }
            if (runs == values.length) {
                values = Arrays.copyOf(values, runs * 2);
                counts = Arrays.copyOf(counts, runs * 2);
            }
            values[runs] = level;
            counts[runs] = count;
            runs++;
        }

        void encodeTo(Bytes out) {
            int lengthAt = out.reserve(4);
            int start = out.size();
            for (int i = 0; i < runs; i++) {
                out.putUnsignedVarInt(counts[i] << 1); // an RLE run's header: count, low bit 0
                out.put((byte) values[i]);
            }
            int length = out.size() - start;
            byte[] b = out.array();
            b[lengthAt] = (byte) length;
            b[lengthAt + 1] = (byte) (length >>> 8);
            b[lengthAt + 2] = (byte) (length >>> 16);
            b[lengthAt + 3] = (byte) (length >>> 24);
        }

        void clear() {
            runs = 0;
        }
    }

    /** A growable byte array (little-endian helpers; not synchronized, unlike ByteArrayOutputStream). */
    static final class Bytes {
        private byte[] buf;
        private int count;

        Bytes() {
            this(256);
        }

        Bytes(int size) {
            buf = new byte[Math.max(16, size)];
        }

        /** Makes room for {@code length} bytes after the written ones, counts them written, returns where they start. */
        int reserve(int length) {
            int at = count;
            if (buf.length - at < length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, at + length));
            }
            count = at + length;
            return at;
        }

        void putIntLE(int v) {
            int at = reserve(4);
            buf[at] = (byte) v;
            buf[at + 1] = (byte) (v >>> 8);
            buf[at + 2] = (byte) (v >>> 16);
            buf[at + 3] = (byte) (v >>> 24);
        }

        void putUnsignedVarInt(int v) {
            while ((v & ~0x7F) != 0) {
                put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            put((byte) v);
        }

        void put(byte b) {
            int at = reserve(1); // before reading buf: reserve may replace it
            buf[at] = b;
        }

        void put(byte[] b, int from, int length) {
            int at = reserve(length);
            System.arraycopy(b, from, buf, at, length);
        }

        void put(Bytes b) {
            put(b.buf, 0, b.count);
        }

        byte[] array() {
            return buf;
        }

        int size() {
            return count;
        }

        void clear() {
            count = 0;
        }
    }

    /** The Flink stream as Parquet's output; closing it leaves the stream open (Flink closes it). */
    private record Output(FSDataOutputStream stream) implements OutputFile {
        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                @Override
                public long getPos() throws IOException {
                    return stream.getPos();
                }

                @Override
                public void write(int b) throws IOException {
                    stream.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    stream.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    stream.flush();
                }

                @Override
                public void close() throws IOException {
                    stream.flush();
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }
    }
}
