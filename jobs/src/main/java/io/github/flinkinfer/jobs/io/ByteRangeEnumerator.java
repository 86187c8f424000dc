package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.connector.file.src.enumerate.NonSplittingRecursiveEnumerator;
import org.apache.flink.core.fs.Path;

/**
 * Cuts every file into byte ranges of about equal size, so the readers of a splittable format
 * ({@link LineFormat}'s lines and CSV records, {@link ParquetInput}'s row groups) share one large file. Flink's
 * {@code BlockSplittingRecursiveEnumerator} cuts at the file system's blocks, and a local file
 * (or most object stores) is one block: one reader would read it all. Files are found as Flink's
 * default enumerator finds them (same recursion and hidden-file filter); only the cutting differs. The enumerator runs once, on the
 * JobManager, and touches file metadata only, never their bytes.
 *
 * <p>Split size: {@link #SPLIT_SIZE} when set, else the corpus's bytes over {@value
 * #SPLITS_PER_READER} splits per reader, between {@link #MIN_SPLIT} and {@link #MAX_SPLIT} (HDFS's
 * block size), so readers that finish early take more and none is left with a large tail.
 *
 * <pre>{@code
 * FileSource.forBulkFileFormat(new LineFormat(max), paths)
 *         .setFileEnumerator(ByteRangeEnumerator.provider(null))
 *         .build();
 * }</pre>
 */
public final class ByteRangeEnumerator extends NonSplittingRecursiveEnumerator {
    /** A fixed split size for line inputs; unset: sized from the corpus and the parallelism. */
    public static final ConfigOption<MemorySize> SPLIT_SIZE = ConfigOptions.key("inference.input.split-size")
            .memoryType()
            .noDefaultValue()
            .withDescription("Byte range of one split of a JSONL, CSV, text or Parquet input file (a"
                    + " Parquet split reads the row groups whose midpoint it holds)."
                    + " Default: the input's size over 4 splits per reader, between 1 MiB and 128 MiB.");

    static final int SPLITS_PER_READER = 4;
    static final long MIN_SPLIT = MemorySize.parse("1m").getBytes();
    static final long MAX_SPLIT = MemorySize.parse("128m").getBytes();

    /** 0: sized from the corpus. */
    private final long splitBytes;

    private ByteRangeEnumerator(long splitBytes) {
        this.splitBytes = splitBytes;
    }

    /** The enumerator for a source; {@code splitSize} null sizes splits from the corpus. */
    public static FileEnumerator.Provider provider(MemorySize splitSize) {
        long bytes = splitSize == null ? 0 : Math.max(1, splitSize.getBytes());
        return () -> new ByteRangeEnumerator(bytes);
    }

    @Override
    public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int readers) throws IOException {
        Collection<FileSourceSplit> files = super.enumerateSplits(paths, readers); // one split per file
        long total = files.stream().mapToLong(FileSourceSplit::length).sum();
        long size = splitBytes > 0 ? splitBytes : splitSize(total, readers);
        List<FileSourceSplit> ranges = new ArrayList<>();
        for (FileSourceSplit file : files) {
            long length = file.length();
            long count = Math.max(1, (length + size - 1) / size);
            for (long i = 0; i < count; i++) { // about equal ranges: no small tail split
                ranges.add(range(getNextId(), file, i, count));
            }
        }
        return ranges;
    }

    /**
     * Range {@code k} of {@code count} about equal ranges of {@code file} (a split of the whole
     * file). Its id ends in {@code :<k>/<count>}, so a reader knows where the file's other ranges
     * start ({@link #rangeStart}): a CSV reader looks for where the next ranges' records start.
     */
    static FileSourceSplit range(String id, FileSourceSplit file, long k, long count) {
        long from = rangeStart(file.length(), k, count);
        long to = rangeStart(file.length(), k + 1, count);
        return new FileSourceSplit(id + ":" + k + "/" + count, file.path(), from, to - from,
                file.fileModificationTime(), file.fileSize(), file.hostnames());
    }

    /** Where range {@code k} of {@code count} of a file of {@code length} bytes starts (k = count: its end). */
    static long rangeStart(long length, long k, long count) {
        return length * k / count;
    }

    /**
     * The index and count ({@code {k, count}}) of a split made by {@link #range}; a split without
     * them (a checkpoint of a version that read CSV unsplit) is taken as the whole file, {@code
     * {0, 1}}, which it must be.
     */
    static long[] rangeOf(FileSourceSplit split) {
        String id = split.splitId();
        int colon = id.lastIndexOf(':');
        int slash = id.lastIndexOf('/');
        if (colon >= 0 && slash > colon) {
            try {
                return new long[] {Long.parseLong(id.substring(colon + 1, slash)), Long.parseLong(id.substring(slash + 1))};
            } catch (NumberFormatException e) {
                // not one of ours: below
            }
        }
        if (split.offset() != 0 || split.length() != split.fileSize()) {
            throw new IllegalStateException("Split " + id + " of " + split.path() + " is a byte range that does"
                    + " not say which of its file's ranges it is");
        }
        return new long[] {0, 1};
    }

    /** The corpus's bytes over {@link #SPLITS_PER_READER} per reader, within the bounds. */
    static long splitSize(long totalBytes, int readers) {
        long perSplit = totalBytes / ((long) Math.max(1, readers) * SPLITS_PER_READER);
        return Math.min(MAX_SPLIT, Math.max(MIN_SPLIT, perSplit));
    }
}
