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
 * ({@link LineFormat} lines, {@link ParquetInput}'s row groups) share one large file. Flink's
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
            .withDescription("Byte range of one split of a JSONL, text or Parquet input file (CSV is"
                    + " not cut; a Parquet split reads the row groups whose midpoint it holds)."
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
                long from = length * i / count;
                long to = length * (i + 1) / count;
                ranges.add(new FileSourceSplit(getNextId(), file.path(), from, to - from,
                        file.fileModificationTime(), file.fileSize(), file.hostnames()));
            }
        }
        return ranges;
    }

    /** The corpus's bytes over {@link #SPLITS_PER_READER} per reader, within the bounds. */
    static long splitSize(long totalBytes, int readers) {
        long perSplit = totalBytes / ((long) Math.max(1, readers) * SPLITS_PER_READER);
        return Math.min(MAX_SPLIT, Math.max(MIN_SPLIT, perSplit));
    }
}
