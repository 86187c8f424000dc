package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.io.ParquetInput.Row;
import io.github.flinkinfer.jobs.io.ParquetRowGroups.RowGroup;
import io.github.flinkinfer.jobs.testutils.ParquetCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet read by row group: byte ranges hand every row group to one split, rows keep their
 * number in the whole file, and a restored split resumes at its row group and row.
 */
class ParquetSplitReaderTest {
    private static final int ROWS = 5_000;

    @TempDir Path tmp;
    private Path file;
    private List<BlockMetaData> blocks;

    @BeforeEach
    void write() throws Exception {
        file = ParquetCorpus.write(tmp.resolve("rows.parquet"), ROWS, 8 << 10);
        try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file))) {
            blocks = r.getRowGroups();
        }
        assertThat(blocks).as("row groups").hasSizeGreaterThan(10);
    }

    @Test
    void everyRowGroupGoesToExactlyOneRangeWithItsFirstRowInTheFile() throws Exception {
        long size = Files.size(file);
        Random random = new Random(7);
        for (int attempt = 0; attempt < 50; attempt++) {
            TreeSet<Long> cuts = new TreeSet<>(List.of(0L, size));
            int n = attempt < 10 ? attempt : random.nextInt(40);
            for (int i = 0; i < n; i++) {
                cuts.add((long) random.nextInt((int) size));
            }
            List<RowGroup> all = new ArrayList<>();
            for (Long from = cuts.first(), to; (to = cuts.higher(from)) != null; from = to) {
                all.addAll(ParquetRowGroups.in(blocks, from, to));
            }
            assertThat(all).extracting(RowGroup::index).as("cuts %s", cuts)
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, blocks.size()).boxed().toList());
            long firstRow = 1;
            for (RowGroup g : all) {
                assertThat(g.firstRow()).isEqualTo(firstRow);
                assertThat(g.rows()).isEqualTo(blocks.get(g.index()).getRowCount());
                firstRow += g.rows();
            }
            assertThat(firstRow - 1).isEqualTo(ROWS);
        }
    }

    @Test
    void theEnumeratorsRangesReadEveryRowOnceNumberedInTheWholeFile() throws Exception {
        for (String splitSize : List.of("16kb", "40kb", "1m")) {
            List<FileSourceSplit> splits = splits(MemorySize.parse(splitSize));
            List<Row> rows = new ArrayList<>();
            for (FileSourceSplit split : splits) {
                rows.addAll(read(split, false, new ArrayList<>()));
            }
            assertThat(rows).as("split size %s", splitSize).hasSize(ROWS);
            for (int i = 0; i < ROWS; i++) {
                Row row = rows.get(i);
                assertThat(row.row).isEqualTo(i + 1);
                assertThat(row.id).isEqualTo(ParquetCorpus.id(i));
                assertThat(row.text).isEqualTo(ParquetCorpus.text(i));
                assertThat(row.position()).endsWith("rows.parquet:" + (i + 1));
            }
        }
        assertThat(splits(MemorySize.parse("16kb"))).hasSizeGreaterThan(4);
    }

    @Test
    void aRestoredSplitResumesAtItsRowGroupAndRow() throws Exception {
        List<FileSourceSplit> splits = splits(MemorySize.parse("64kb"));
        assertThat(splits).hasSizeGreaterThan(1);
        FileSourceSplit split = splits.get(1); // not at the file's start: its first row is not row 1
        List<CheckpointedPosition> positions = new ArrayList<>();
        List<Row> rows = read(split, false, positions);
        assertThat(rows.size()).isGreaterThan(ParquetSplitReader.BATCH_ROWS + 1);
        assertThat(rows.get(0).row).isGreaterThan(1);
        int groupEnd = (int) (blocks.get(ParquetRowGroups.in(blocks, split.offset(), split.offset() + split.length())
                .get(0).index()).getRowCount() - 1);
        for (int done : new int[] {0, 1, groupEnd, groupEnd + 1, ParquetSplitReader.BATCH_ROWS - 1,
                ParquetSplitReader.BATCH_ROWS, rows.size() - 1}) {
            List<Row> rest = read(split.updateWithCheckpointedPosition(positions.get(done)), true, new ArrayList<>());
            assertThat(rest).as("after %d rows", done + 1).extracting(r -> r.row)
                    .containsExactlyElementsOf(rows.subList(done + 1, rows.size()).stream().map(r -> r.row).toList());
        }
    }

    /** A whole-file split checkpointed by the earlier reader (no offset, rows read) resumes after those rows. */
    @Test
    void aWholeFilePositionWithoutOffsetSkipsItsRows() throws Exception {
        FileSourceSplit whole = splits(MemorySize.parse("1g")).get(0);
        for (long done : new long[] {1, 777, blocks.get(0).getRowCount(), ROWS - 1, ROWS}) {
            List<Row> rest = read(whole.updateWithCheckpointedPosition(
                    new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, done)), true, new ArrayList<>());
            assertThat(rest).hasSize((int) (ROWS - done));
            if (!rest.isEmpty()) {
                assertThat(rest.get(0).row).isEqualTo(done + 1);
                assertThat(rest.get(0).text).isEqualTo(ParquetCorpus.text((int) done));
            }
        }
    }

    /** Snappy and ZSTD pages (Spark's and our writer's defaults) read as the uncompressed file does. */
    @Test
    void compressedFilesReadTheSameRows() throws Exception {
        for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY, CompressionCodecName.ZSTD)) {
            Path compressed = ParquetCorpus.write(tmp.resolve(codec + ".parquet"), ROWS, 8 << 10, codec);
            List<Row> rows = new ArrayList<>();
            for (FileSourceSplit split : splits(compressed, MemorySize.parse("16kb"))) {
                rows.addAll(read(split, false, new ArrayList<>()));
            }
            assertThat(rows).as("%s", codec).hasSize(ROWS);
            assertThat(rows.get(ROWS - 1).text).isEqualTo(ParquetCorpus.text(ROWS - 1));
            assertThat(rows.get(ROWS - 1).row).isEqualTo(ROWS);
        }
    }

    private List<FileSourceSplit> splits(MemorySize size) throws Exception {
        return splits(file, size);
    }

    private static List<FileSourceSplit> splits(Path file, MemorySize size) throws Exception {
        List<FileSourceSplit> splits = new ArrayList<>(ByteRangeEnumerator.provider(size).create()
                .enumerateSplits(new org.apache.flink.core.fs.Path[] {new org.apache.flink.core.fs.Path(file.toUri())}, 4));
        splits.sort(Comparator.comparingLong(FileSourceSplit::offset));
        return splits;
    }

    /** Every row of {@code split} and, in {@code positions}, the position a checkpoint after it would hold. */
    private static List<Row> read(FileSourceSplit split, boolean restored, List<CheckpointedPosition> positions)
            throws Exception {
        BulkFormat<Row, FileSourceSplit> format = ParquetInput.format("id", "text");
        List<Row> out = new ArrayList<>();
        try (BulkFormat.Reader<Row> reader = restored ? format.restoreReader(new Configuration(), split)
                : format.createReader(new Configuration(), split)) {
            for (BulkFormat.RecordIterator<Row> batch; (batch = reader.readBatch()) != null; ) {
                for (RecordAndPosition<Row> r; (r = batch.next()) != null; ) {
                    out.add(r.getRecord());
                    positions.add(new CheckpointedPosition(r.getOffset(), r.getRecordSkipCount()));
                }
                batch.releaseBatch();
            }
        }
        return out;
    }
}
