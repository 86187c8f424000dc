package io.github.flinkinfer.jobs.io;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.IteratorResultIterator;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Reads files line by line as {@link RawLine}s that know their file and line number. Lines end
 * at {@code \n} (a trailing {@code \r} is dropped); a UTF-8 BOM at the start of a file is
 * skipped. A line longer than {@code maxLineBytes} is not kept in memory: it is skipped to its
 * end and reported as oversized, so one multi-megabyte line cannot exhaust a TaskManager. Files
 * are not split; on restore the reader skips the lines already emitted.
 */
public final class LineFormat implements BulkFormat<RawLine, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private static final int LINES_PER_BATCH = 512;

    private final int maxLineBytes;

    public LineFormat(int maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    public Reader<RawLine> createReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new LineReader(split, 0);
    }

    @Override
    public Reader<RawLine> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        long skip = split.getReaderPosition().map(CheckpointedPosition::getRecordsAfterOffset).orElse(0L);
        return new LineReader(split, skip);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<RawLine> getProducedType() {
        return TypeInformation.of(RawLine.class);
    }

    private final class LineReader implements Reader<RawLine> {
        private final InputStream in;
        private final String file;
        private long lineNo;
        private boolean eof;

        LineReader(FileSourceSplit split, long skip) throws IOException {
            Path path = split.path();
            FileSystem fs = path.getFileSystem();
            this.in = new BufferedInputStream(fs.open(path), 1 << 16);
            this.file = path.getName();
            skipBom();
            for (long i = 0; i < skip && !eof; i++) {
                readLine();
            }
        }

        private void skipBom() throws IOException {
            in.mark(3);
            byte[] head = in.readNBytes(3);
            if (!(head.length == 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB
                    && (head[2] & 0xFF) == 0xBF)) {
                in.reset();
            }
        }

        /** Reads the next line, or returns null at end of file. */
        private RawLine readLine() throws IOException {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
            long length = 0;
            boolean oversized = false;
            int b;
            boolean any = false;
            while ((b = in.read()) != -1) {
                any = true;
                if (b == '\n') {
                    break;
                }
                length++;
                if (length > maxLineBytes) {
                    oversized = true;
                    buf = null;
                } else if (buf != null) {
                    buf.write(b);
                }
            }
            if (b == -1) {
                eof = true;
                if (!any) {
                    return null;
                }
            }
            lineNo++;
            byte[] bytes = oversized ? null : buf.toByteArray();
            if (bytes != null && bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
                bytes = java.util.Arrays.copyOf(bytes, bytes.length - 1);
                length--;
            }
            return new RawLine(file, lineNo, bytes, length, oversized);
        }

        @Override
        public RecordIterator<RawLine> readBatch() throws IOException {
            if (eof) {
                return null;
            }
            long skipBefore = lineNo;
            List<RawLine> lines = new ArrayList<>(LINES_PER_BATCH);
            while (lines.size() < LINES_PER_BATCH && !eof) {
                RawLine line = readLine();
                if (line != null) {
                    lines.add(line);
                }
            }
            if (lines.isEmpty()) {
                return null;
            }
            return new IteratorResultIterator<>(
                    lines.iterator(), CheckpointedPosition.NO_OFFSET, skipBefore);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
