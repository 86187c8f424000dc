package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files cut into contiguous byte ranges of about equal size, sized from the input and the readers. */
class ByteRangeEnumeratorTest {
    @TempDir Path tmp;

    @Test
    void aLargeFileIsCutIntoFourRangesPerReaderCoveringItOnce() throws Exception {
        Path big = Files.write(tmp.resolve("big.jsonl"), new byte[10 << 20]);
        Path small = Files.write(tmp.resolve("small.jsonl"), new byte[1000]);
        List<FileSourceSplit> splits = split(null, 2, tmp);
        List<FileSourceSplit> ofBig = ofFile(splits, big);
        assertThat(ofBig).hasSize(8); // 10 MiB and 1000 bytes over 2 readers x 4
        assertContiguous(ofBig, Files.size(big));
        assertThat(ofFile(splits, small)).singleElement().satisfies(s -> assertThat(s.length()).isEqualTo(1000));
        assertThat(splits.stream().map(FileSourceSplit::splitId).distinct()).hasSameSizeAs(splits);
    }

    @Test
    void aSetSplitSizeWinsAndSizesStayWithinBounds() throws Exception {
        Path file = Files.write(tmp.resolve("f.jsonl"), new byte[3 << 20]);
        List<FileSourceSplit> splits = split(MemorySize.parse("1m"), 16, file);
        assertThat(splits).hasSize(3);
        assertContiguous(splits, Files.size(file));
        assertThat(ByteRangeEnumerator.splitSize(10, 4)).isEqualTo(ByteRangeEnumerator.MIN_SPLIT);
        assertThat(ByteRangeEnumerator.splitSize(1L << 40, 1)).isEqualTo(ByteRangeEnumerator.MAX_SPLIT);
        assertThat(ByteRangeEnumerator.splitSize(64L << 20, 2)).isEqualTo(8L << 20);
    }

    private static List<FileSourceSplit> split(MemorySize size, int readers, Path... paths) throws Exception {
        org.apache.flink.core.fs.Path[] flink = new org.apache.flink.core.fs.Path[paths.length];
        for (int i = 0; i < paths.length; i++) {
            flink[i] = new org.apache.flink.core.fs.Path(paths[i].toUri());
        }
        return List.copyOf(ByteRangeEnumerator.provider(size).create().enumerateSplits(flink, readers));
    }

    private static List<FileSourceSplit> ofFile(List<FileSourceSplit> splits, Path file) {
        return splits.stream().filter(s -> s.path().getName().equals(file.getFileName().toString()))
                .sorted(Comparator.comparingLong(FileSourceSplit::offset)).toList();
    }

    private static void assertContiguous(List<FileSourceSplit> ranges, long size) {
        long next = 0;
        for (FileSourceSplit s : ranges) {
            assertThat(s.offset()).isEqualTo(next);
            assertThat(s.fileSize()).isEqualTo(size);
            next = s.offset() + s.length();
        }
        assertThat(next).isEqualTo(size);
    }
}
