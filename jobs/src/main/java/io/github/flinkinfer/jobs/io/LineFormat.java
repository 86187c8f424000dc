package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.IteratorResultIterator;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

/**
 * Reads files record by record as {@link RawLine}s that know their file and position. A record is
 * a line ending at {@code \n} (a trailing {@code \r} is dropped) or, for {@link #csvRecords CSV},
 * as many lines as a quoted field holds newlines; a UTF-8 BOM at the start of a file is skipped. A
 * record longer than {@code maxLineBytes} is not kept in memory: it is skipped to its end and
 * reported as oversized, so one multi-megabyte record cannot exhaust a TaskManager.
 *
 * <p>Lines (JSONL, text) are splittable: a split is a byte range ({@link ByteRangeEnumerator}) and
 * reads the records that <em>start</em> in it: one not at offset 0 skips the partial line before
 * its first newline, and the last record is read past the range's end to its newline, so every
 * line is read once whatever the cut. Their position is the byte offset of the line's start,
 * {@code <path>@<offset>}, which a split knows without reading what comes before it. A quoted CSV
 * field may hold newlines, so a byte range cannot tell where a CSV record starts: CSV files are
 * not split and keep line numbers, {@code <path>:<line>}.
 */
public final class LineFormat implements BulkFormat<RawLine, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private static final int LINES_PER_BATCH = 512;

    private final int maxLineBytes;
    private final boolean csvQuotes;

    /** One record per line, positioned by byte offset; splittable. */
    public LineFormat(int maxLineBytes) {
        this(maxLineBytes, false);
    }

    private LineFormat(int maxLineBytes, boolean csvQuotes) {
        this.maxLineBytes = maxLineBytes;
        this.csvQuotes = csvQuotes;
    }

    /**
     * One record per CSV record (RFC 4180): a newline inside a double-quoted field belongs to the
     * record, which keeps the number of its first line. Not splittable.
     */
    public static LineFormat csvRecords(int maxRecordBytes) {
        return new LineFormat(maxRecordBytes, true);
    }

    @Override
    public Reader<RawLine> createReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new LineReader(split, null);
    }

    /**
     * Resumes a split: lines from the checkpointed offset (a record's start), then skip the records
     * already emitted after it; CSV from the file's start (line numbers are counted), skipping
     * every record already emitted.
     */
    @Override
    public Reader<RawLine> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new LineReader(split, split.getReaderPosition().orElse(null));
    }

    @Override
    public boolean isSplittable() {
        return !csvQuotes;
    }

    @Override
    public TypeInformation<RawLine> getProducedType() {
        return TypeInformation.of(RawLine.class);
    }

    /**
     * Reads records from its own 64 KB buffer: a JSONL record is found with one scan for the
     * newline and copied once, where reading byte by byte through {@code BufferedInputStream} and
     * {@code ByteArrayOutputStream} (two locks per byte) held the source's thread for most of its
     * time (JFR of the host ceiling).
     */
    private final class LineReader implements Reader<RawLine> {
        private final FSDataInputStream in;
        private final String file;
        /** The split's end: a record starting at or after it belongs to the next split. */
        private final long end;
        private final byte[] chunk = new byte[1 << 16];
        /** The file offset of {@code chunk[0]}. */
        private long chunkStart;
        private int pos;
        private int limit;
        /** The record being read (its first {@link #maxLineBytes} bytes at most). */
        private byte[] record = new byte[256];
        /** Physical lines read so far (CSV only: lines are positioned by offset). */
        private long lineNo;
        /** Records read so far (CSV's checkpointed position; lines differ in CSV). */
        private long records;
        /**
         * Whether the next record is this split's even if it starts at or past {@link #end}: the
         * file's first (which starts after a BOM) or a restored one.
         */
        private boolean ownsNext;
        private boolean eof;

        LineReader(FileSourceSplit split, CheckpointedPosition restored) throws IOException {
            Path path = split.path();
            this.in = InputFiles.openInSubtask(path, () -> path.getFileSystem().open(path));
            this.file = path.toString(); // the whole path: same-named files stay apart
            this.end = split.offset() + split.length();
            long skip = restored == null ? 0 : restored.getRecordsAfterOffset();
            if (restored != null && restored.getOffset() != CheckpointedPosition.NO_OFFSET) {
                seek(restored.getOffset());
                ownsNext = true;
            } else if (split.offset() == 0) {
                skipBom();
                ownsNext = true;
            } else {
                seek(split.offset() - 1); // a newline just before the range: it starts on a line
                skipPastNewline();
            }
            for (long i = 0; i < skip && !eof; i++) {
                readLine();
            }
        }

        private void seek(long offset) throws IOException {
            in.seek(offset);
            chunkStart = offset;
            pos = 0;
            limit = 0;
        }

        private void skipBom() throws IOException {
            while (limit < 3) {
                int n = in.read(chunk, limit, chunk.length - limit);
                if (n < 0) {
                    break;
                }
                limit += n;
            }
            if (limit >= 3 && (chunk[0] & 0xFF) == 0xEF && (chunk[1] & 0xFF) == 0xBB && (chunk[2] & 0xFF) == 0xBF) {
                pos = 3;
            }
        }

        /** Skips the rest of a line begun in the previous split (or just its newline). */
        private void skipPastNewline() throws IOException {
            while (available()) {
                int to = pos;
                while (to < limit && chunk[to] != '\n') {
                    to++;
                }
                pos = to < limit ? to + 1 : to;
                if (to < limit) {
                    return;
                }
            }
            eof = true;
        }

        /** Refills the buffer when it is used up; false at the end of the file. */
        private boolean available() throws IOException {
            while (pos == limit) {
                int n = in.read(chunk, 0, chunk.length);
                if (n < 0) {
                    return false;
                }
                chunkStart += limit;
                pos = 0;
                limit = n;
            }
            return true;
        }

        /** Reads the next record, or returns null at end of file. */
        private RawLine readLine() throws IOException {
            long offset = chunkStart + pos;
            if (offset >= end && !ownsNext) { // the next split's first record
                eof = true;
                return null;
            }
            ownsNext = false;
            int kept = 0;
            long length = 0;
            long firstLine = lineNo + 1;
            boolean any = false;
            boolean ended = false;
            CsvQuotes quotes = csvQuotes ? new CsvQuotes() : null;
            while (!ended) {
                if (!available()) {
                    eof = true;
                    break;
                }
                any = true;
                int from = pos;
                int to = from;
                if (quotes == null) {
                    while (to < limit && chunk[to] != '\n') {
                        to++;
                    }
                    ended = to < limit;
                } else {
                    for (; to < limit; to++) {
                        byte b = chunk[to];
                        if (b == '\n') {
                            if (!quotes.inQuotedField()) {
                                ended = true;
                                break;
                            }
                            lineNo++; // a newline inside a quoted field: the record goes on
                        } else {
                            quotes.accept(b & 0xFF);
                        }
                    }
                }
                pos = ended ? to + 1 : to;
                length += to - from;
                if (length <= maxLineBytes) { // beyond it the record is measured, not kept
                    if (record.length < kept + to - from) {
                        record = Arrays.copyOf(record, Math.max(record.length * 2, kept + to - from));
                    }
                    System.arraycopy(chunk, from, record, kept, to - from);
                    kept += to - from;
                }
            }
            if (eof && !any) {
                return null;
            }
            lineNo++;
            records++;
            boolean oversized = length > maxLineBytes;
            byte[] bytes = null;
            if (!oversized) {
                boolean cr = kept > 0 && record[kept - 1] == '\r';
                bytes = Arrays.copyOf(record, cr ? kept - 1 : kept);
                length -= cr ? 1 : 0;
            }
            if (record.length > 1 << 20) {
                record = new byte[256]; // one long record does not pin its buffer for the rest of the file
            }
            return csvQuotes
                    ? RawLine.atLine(file, firstLine, bytes, length, oversized)
                    : RawLine.atOffset(file, offset, bytes, length, oversized);
        }

        @Override
        public RecordIterator<RawLine> readBatch() throws IOException {
            if (eof) {
                return null;
            }
            long batchStart = chunkStart + pos;
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
            // lines restore from the batch's first record (seek, then skip); CSV counts from the start
            return csvQuotes
                    ? new IteratorResultIterator<>(lines.iterator(), CheckpointedPosition.NO_OFFSET, skipBefore)
                    : new IteratorResultIterator<>(lines.iterator(), batchStart, 0);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
