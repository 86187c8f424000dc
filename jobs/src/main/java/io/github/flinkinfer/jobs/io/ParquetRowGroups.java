package io.github.flinkinfer.jobs.io;

import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.BlockMetaData;

/**
 * The row groups of a Parquet file that one byte-range split reads: those whose midpoint lies in
 * the range (Hadoop's rule), so the contiguous ranges of {@link ByteRangeEnumerator} give every
 * row group to exactly one split, however the cuts fall. Each group carries its first row's number
 * in the whole file, so a row's position does not depend on the split that read it.
 *
 * <pre>{@code
 * List<ParquetRowGroups.RowGroup> mine = ParquetRowGroups.in(reader.getRowGroups(), split.offset(),
 *         split.offset() + split.length());
 * }</pre>
 */
public final class ParquetRowGroups {
    private ParquetRowGroups() {}

    /**
     * One row group of a split.
     *
     * @param index the group's index in the file's footer
     * @param start the byte offset of its first column chunk: the group's checkpointed offset
     * @param firstRow the 1-based number of its first row in the whole file
     * @param rows its row count
     */
    public record RowGroup(int index, long start, long firstRow, long rows) {}

    /** The groups of {@code blocks} (a footer's, in file order) whose midpoint is in [{@code from}, {@code to}). */
    public static List<RowGroup> in(List<BlockMetaData> blocks, long from, long to) {
        List<RowGroup> groups = new ArrayList<>();
        long firstRow = 1;
        for (int i = 0; i < blocks.size(); i++) {
            BlockMetaData block = blocks.get(i);
            long midpoint = block.getStartingPos() + block.getCompressedSize() / 2;
            if (midpoint >= from && midpoint < to) {
                groups.add(new RowGroup(i, block.getStartingPos(), firstRow, block.getRowCount()));
            }
            firstRow += block.getRowCount();
        }
        return groups;
    }
}
