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
 * Reads files record by record as {@link RawLine}s that know their file and first line number.
 * A record is a line ending at {@code \n} (a trailing {@code \r} is dropped) or, for {@link
 * #csvRecords CSV}, as many lines as a quoted field holds newlines; a UTF-8 BOM at the start of a
 * file is skipped. A record longer than {@code maxLineBytes} is not kept in memory: it is skipped
 * to its end and reported as oversized, so one multi-megabyte record cannot exhaust a TaskManager.
 * Files are not split; on restore the reader skips the records already emitted.
 */
public final class LineFormat implements BulkFormat<RawLine, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private static final int LINES_PER_BATCH = 512;

    private final int maxLineBytes;
    private final boolean csvQuotes;

    /** One record per line. */
    public LineFormat(int maxLineBytes) {
        this(maxLineBytes, false);
    }

    private LineFormat(int maxLineBytes, boolean csvQuotes) {
        this.maxLineBytes = maxLineBytes;
        this.csvQuotes = csvQuotes;
    }

    /**
     * One record per CSV record (RFC 4180): a newline inside a double-quoted field belongs to the
     * record, which keeps the number of its first line.
     */
    public static LineFormat csvRecords(int maxRecordBytes) {
        return new LineFormat(maxRecordBytes, true);
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
        /** Physical lines read so far. */
        private long lineNo;
        /** Records read so far (the checkpointed position; lines differ in CSV). */
        private long records;
        private boolean eof;

        LineReader(FileSourceSplit split, long skip) throws IOException {
            Path path = split.path();
            FileSystem fs = path.getFileSystem();
            this.in = new BufferedInputStream(fs.open(path), 1 << 16);
            this.file = path.toString(); // the whole path: same-named files stay apart
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

        /** Reads the next record, or returns null at end of file. */
        private RawLine readLine() throws IOException {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
            long length = 0;
            long firstLine = lineNo + 1;
            boolean oversized = false;
            int b;
            boolean any = false;
            CsvQuotes quotes = csvQuotes ? new CsvQuotes() : null;
            while ((b = in.read()) != -1) {
                any = true;
                if (b == '\n') {
                    if (quotes == null || !quotes.inQuotedField()) {
                        break;
                    }
                    lineNo++; // a newline inside a quoted field: the record goes on
                } else if (quotes != null) {
                    quotes.accept(b);
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
            records++;
            byte[] bytes = oversized ? null : buf.toByteArray();
            if (bytes != null && bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
                bytes = java.util.Arrays.copyOf(bytes, bytes.length - 1);
                length--;
            }
            return new RawLine(file, firstLine, bytes, length, oversized);
        }

        @Override
        public RecordIterator<RawLine> readBatch() throws IOException {
            if (eof) {
                return null;
            }
            long skipBefore = records;
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
