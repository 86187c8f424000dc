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
import org.apache.flink.connector.file.src.util.SingletonResultIterator;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads files record by record as {@link RawLine}s that know their file and position. A record is
 * a line ending at {@code \n} (a trailing {@code \r} is dropped) or, for {@link #csvRecords CSV},
 * as many lines as a quoted field holds newlines; a UTF-8 BOM at the start of a file is skipped. A
 * record longer than {@code maxLineBytes} is not kept in memory: it is skipped to its end and
 * reported as oversized, so one multi-megabyte record cannot exhaust a TaskManager.
 *
 * <p>Files are split into byte ranges ({@link ByteRangeEnumerator}); a split reads the records
 * that <em>start</em> in it, reading its last one past the range's end, so every record is read
 * once whatever the cut. A record's position is the byte offset of its first byte, {@code
 * <path>@<offset>}, which a split knows without reading what comes before it.
 * <ul>
 *   <li>Lines (JSONL, text): a split not at offset 0 skips the partial line before its first
 *       newline.
 *   <li>CSV: a quoted field may hold newlines, so a split's first newline need not end a record. A
 *       split not at offset 0 starts after the first newline that ends a record whatever the state
 *       at its first byte ({@link CsvQuotes.Resync}), and the split before it reads up to that same
 *       newline, which it finds the same way from its end. A CSV split also reads the file's header
 *       (its first record) and passes it on first, flagged {@link RawLine#header}, so the parser of
 *       every subtask knows the columns.
 * </ul>
 */
public final class LineFormat implements BulkFormat<RawLine, FileSourceSplit> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LineFormat.class);
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
     * record; the file's first record is its header.
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
     * Resumes a split from the checkpointed offset (a record's start), then skips the records
     * already emitted after it; without an offset (a CSV checkpoint of a version that did not split
     * CSV) from the split's start.
     */
    @Override
    public Reader<RawLine> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new LineReader(split, split.getReaderPosition().orElse(null));
    }

    @Override
    public boolean isSplittable() {
        return true;
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
        /** The split's end: a record starting at or after it belongs to the next split (lines). */
        private final long end;
        private final byte[] chunk = new byte[1 << 16];
        /** The file offset of {@code chunk[0]}. */
        private long chunkStart;
        private int pos;
        private int limit;
        /** The record being read (its first {@link #maxLineBytes} bytes at most). */
        private byte[] record = new byte[256];
        /**
         * Whether the next line is this split's even if it starts at or past {@link #end}: the
         * file's first (which starts after a BOM) or a restored one.
         */
        private boolean ownsNext;
        private boolean eof;
        /** CSV: the offset of the file's first record (its header): after the BOM if any. */
        private long firstRecord;
        /** CSV: the header, read ahead when this split does not start with it; passed on first. */
        private RawLine header;
        /** CSV: the file's length and how many ranges it was cut into ({@link ByteRangeEnumerator#range}). */
        private long fileLength;
        private long ranges;
        /**
         * CSV: the range after this one that {@link #toNextSplit} looks for a record start in,
         * from {@link #resyncFrom} to {@link #windowEnd}; a range without one reads nothing and
         * this split reads on through it.
         */
        private long window;
        private long resyncFrom;
        private long windowEnd;
        /** CSV: null once the next split's first record is found, or when no range follows. */
        private CsvQuotes.Resync toNextSplit;
        /** CSV: the next split's first record, where this one stops; -1: read to the end of the file. */
        private long nextSplitStart = -1;

        LineReader(FileSourceSplit split, CheckpointedPosition restored) throws IOException {
            Path path = split.path();
            this.in = InputFiles.openInSubtask(path, () -> path.getFileSystem().open(path));
            this.file = path.toString(); // the whole path: same-named files stay apart
            this.end = split.offset() + split.length();
            long skip = restored == null ? 0 : restored.getRecordsAfterOffset();
            boolean atOffset = restored != null && restored.getOffset() != CheckpointedPosition.NO_OFFSET;
            if (csvQuotes) {
                openCsv(split, atOffset ? restored.getOffset() : -1, skip);
            } else if (atOffset) {
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

        /**
         * Reads the file's header unless this split starts with it, then goes to where the split's
         * records start: {@code restoredAt} (-1: none), else the file's first record (range 0) or
         * the first record that starts in the range whatever came before (none: the split reads
         * nothing, the one before reads on through it).
         */
        private void openCsv(FileSourceSplit split, long restoredAt, long skip) throws IOException {
            long[] range = ByteRangeEnumerator.rangeOf(split);
            fileLength = split.fileSize();
            ranges = range[1];
            seek(0);
            skipBom();
            firstRecord = chunkStart + pos;
            boolean fromStart = restoredAt >= 0 ? restoredAt == firstRecord : range[0] == 0;
            boolean readAhead = !fromStart || skip > 0; // else the header is this split's first record
            if (readAhead) {
                header = readRecord();
                eof = false; // the header may be the whole file; the split's own reading decides
            }
            if (restoredAt >= 0) {
                long j = range[0] + 1;
                while (j < ranges && restoredAt >= rangeStart(j + 1)) {
                    j++;
                }
                startWindow(j);
                if (toNextSplit != null && restoredAt > resyncFrom) { // read on past the end: the
                    seek(resyncFrom);           // search in that range goes on from where it began
                    eof = !skipTo(restoredAt);
                } else {
                    seek(restoredAt);
                }
            } else if (fromStart) {
                if (readAhead) {
                    seek(firstRecord);
                }
                startWindow(range[0] + 1);
            } else {
                seek(Math.max(split.offset(), firstRecord));
                eof = !findRecordStart(end);
                if (eof) {
                    LOG.info("CSV range {} of {} of {} holds no newline that ends a record whatever came before it"
                            + " (no '\"' in it): the range before reads it", range[0] + 1, ranges, file);
                }
                startWindow(range[0] + 1);
            }
        }

        private long rangeStart(long k) {
            return ByteRangeEnumerator.rangeStart(fileLength, Math.min(k, ranges), ranges);
        }

        /** CSV: looks for the next split's first record in range {@code k} (none left: to the end). */
        private void startWindow(long k) {
            window = k;
            if (k >= ranges) {
                toNextSplit = null;
                return;
            }
            resyncFrom = Math.max(rangeStart(k), firstRecord);
            windowEnd = rangeStart(k + 1);
            toNextSplit = new CsvQuotes.Resync();
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

        /** CSV: consumes the bytes before offset {@code to}; false at the end of the file. */
        private boolean skipTo(long to) throws IOException {
            while (chunkStart + pos < to) {
                if (!available()) {
                    return false;
                }
                int from = pos;
                pos = (int) Math.min(limit, to - chunkStart);
                feedNextSplit(from, pos);
            }
            return true;
        }

        /**
         * CSV: consumes bytes up to just past the first newline before {@code before} that ends a
         * record whatever the state where the search began ({@link CsvQuotes.Resync}); false
         * where there is none. Stays before the split's end, so nothing is fed to {@link #toNextSplit}.
         */
        private boolean findRecordStart(long before) throws IOException {
            CsvQuotes.Resync start = new CsvQuotes.Resync();
            while (chunkStart + pos < before && available()) {
                int stop = (int) Math.min(limit, before - chunkStart);
                for (int i = start.skipToQuote(chunk, pos, stop); i < stop; i = start.skipToQuote(chunk, i + 1, stop)) {
                    if (start.accept(chunk[i] & 0xFF)) {
                        pos = i + 1;
                        return true;
                    }
                }
                pos = stop;
            }
            return false;
        }

        /**
         * CSV: passes {@code chunk[from, to)}'s bytes to {@link #toNextSplit}, range after range,
         * until it finds where the next split's records start.
         */
        private void feedNextSplit(int from, int to) {
            for (int i = from; i < to && toNextSplit != null; i++) {
                long offset = chunkStart + i;
                if (offset >= windowEnd) { // no record starts in that range: look in the next one
                    startWindow(window + 1);
                    i--;
                } else if (offset < resyncFrom) {
                    i = (int) Math.min(to, resyncFrom - chunkStart) - 1;
                } else {
                    int quote = toNextSplit.skipToQuote(chunk, i, (int) Math.min(to, windowEnd - chunkStart));
                    if (quote > i) {
                        i = quote - 1; // the bytes before it cannot end the search
                    } else if (toNextSplit.accept(chunk[i] & 0xFF)) {
                        nextSplitStart = offset + 1;
                        toNextSplit = null;
                    }
                }
            }
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

        /** Reads this split's next record, or returns null past its last. */
        private RawLine readLine() throws IOException {
            long offset = chunkStart + pos;
            boolean nextSplits = csvQuotes
                    ? nextSplitStart >= 0 && offset >= nextSplitStart
                    : offset >= end && !ownsNext;
            if (nextSplits) {
                eof = true;
                return null;
            }
            ownsNext = false;
            return readRecord();
        }

        /** Reads the record that starts here, or returns null at end of file. */
        private RawLine readRecord() throws IOException {
            long offset = chunkStart + pos;
            int kept = 0;
            long length = 0;
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
                        } else {
                            quotes.accept(b & 0xFF);
                        }
                    }
                }
                pos = ended ? to + 1 : to;
                if (quotes != null) {
                    feedNextSplit(from, pos);
                }
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
            RawLine line = RawLine.atOffset(file, offset, bytes, length, oversized);
            line.header = csvQuotes && offset == firstRecord;
            return line;
        }

        @Override
        public RecordIterator<RawLine> readBatch() throws IOException {
            if (eof) {
                return null;
            }
            long batchStart = chunkStart + pos;
            if (header != null) { // alone: a restore from after it reads it again, then batchStart
                SingletonResultIterator<RawLine> first = new SingletonResultIterator<>();
                first.set(header, batchStart, 0);
                header = null;
                return first;
            }
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
            // a restore seeks to the batch's first record, then skips
            return new IteratorResultIterator<>(lines.iterator(), batchStart, 0);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
