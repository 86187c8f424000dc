package io.github.flinkinfer.jobs.sql.format;

import io.github.flinkinfer.jobs.io.LineFormat;
import io.github.flinkinfer.jobs.io.RawLine;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.MutableRecordAndPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * Reads files with the embed job's {@link LineFormat} (file and byte offset known, BOM and CRLF
 * handled, over-long lines not buffered) and decodes each line into exactly one row. One line,
 * one row: a line's checkpointed position is its row's, and a file splits where the lines do
 * (the filesystem connector cuts splittable formats at the file system's blocks).
 */
final class JsonWithErrorsBulkFormat implements BulkFormat<RowData, FileSourceSplit> {
    private static final long serialVersionUID = 1L;

    private final LineFormat lines;
    private final DeserializationSchema<RowData> json;
    private final RowShape shape;
    private final TypeInformation<RowData> producedType;

    JsonWithErrorsBulkFormat(int maxLineBytes, DeserializationSchema<RowData> json, RowShape shape,
            TypeInformation<RowData> producedType) {
        this.lines = new LineFormat(maxLineBytes);
        this.json = json;
        this.shape = shape;
        this.producedType = producedType;
    }

    @Override
    public BulkFormat.Reader<RowData> createReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new Reader(lines.createReader(config, split), decoder());
    }

    @Override
    public BulkFormat.Reader<RowData> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new Reader(lines.restoreReader(config, split), decoder());
    }

    @Override
    public boolean isSplittable() {
        return lines.isSplittable();
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return producedType;
    }

    /** A deserializer per reader, opened as Flink's own DeserializationSchemaAdapter does. */
    private JsonLineDecoder decoder() throws IOException {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        try {
            DeserializationSchema<RowData> copy = InstantiationUtil.clone(json, cl);
            copy.open(new DeserializationSchema.InitializationContext() {
                @Override
                public MetricGroup getMetricGroup() {
                    return new UnregisteredMetricsGroup();
                }

                @Override
                public UserCodeClassLoader getUserCodeClassLoader() {
                    return SimpleUserCodeClassLoader.create(cl);
                }
            });
            return new JsonLineDecoder(copy, shape);
        } catch (Exception e) {
            throw new IOException("Cannot open the JSON deserializer", e);
        }
    }

    private static final class Reader implements BulkFormat.Reader<RowData> {
        private final BulkFormat.Reader<RawLine> lines;
        private final JsonLineDecoder decoder;

        Reader(BulkFormat.Reader<RawLine> lines, JsonLineDecoder decoder) {
            this.lines = lines;
            this.decoder = decoder;
        }

        @Nullable
        @Override
        public RecordIterator<RowData> readBatch() throws IOException {
            RecordIterator<RawLine> batch = lines.readBatch();
            return batch == null ? null : new Decoded(batch, decoder);
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    /** A batch of lines seen as rows, keeping each line's position. */
    private static final class Decoded implements BulkFormat.RecordIterator<RowData> {
        private final BulkFormat.RecordIterator<RawLine> lines;
        private final JsonLineDecoder decoder;
        private final MutableRecordAndPosition<RowData> next = new MutableRecordAndPosition<>();

        Decoded(BulkFormat.RecordIterator<RawLine> lines, JsonLineDecoder decoder) {
            this.lines = lines;
            this.decoder = decoder;
        }

        @Nullable
        @Override
        public RecordAndPosition<RowData> next() {
            RecordAndPosition<RawLine> line = lines.next();
            if (line == null) {
                return null;
            }
            next.set(decoder.decode(line.getRecord()), line.getOffset(),
                    line.getRecordSkipCount());
            return next;
        }

        @Override
        public void releaseBatch() {
            lines.releaseBatch();
        }
    }
}
