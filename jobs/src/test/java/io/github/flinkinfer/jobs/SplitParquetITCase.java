package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.testutils.InputReads.Read;
import io.github.flinkinfer.jobs.testutils.InputReads;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.ParquetCorpus;
import io.github.flinkinfer.operators.Document;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Parquet file of 50,000 rows in many row groups, read at parallelism 4, is read by row group:
 * every reader subtask reads rows, and the documents (id, text, position {@code <path>:<row>}) and
 * error rows are exactly those of the same file read unsplit by one reader.
 */
class SplitParquetITCase {
    private static final int ROWS = 50_000;

    /** Two TaskManagers with two slots each: four readers in two processes. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = MiniClusters.fourSlotsInTwoTaskManagers();

    @TempDir Path tmp;

    @Test
    void aLargeFileIsReadByEveryReaderWithTheDocumentsAndErrorsOfAnUnsplitRead() throws Exception {
        Path file = ParquetCorpus.write(tmp.resolve("large.parquet"), ROWS, 32 << 10);
        InputConfig in = Jobs.options("--input", file.toString(), "--output", tmp.resolve("out").toString())
                .inputConfig();

        // the file is about 1 MiB, the least default split: ranges of 64 KiB give each reader several
        Read split = InputReads.read(in, 4, MemorySize.parse("64kb"), new Tagged(), ROWS);
        Read whole = InputReads.read(in, 1, MemorySize.parse("1g"), new Tagged(), ROWS);

        long[] rows = InputReads.assertSplitReadsAsWhole(split, whole, 4, WITHOUT_READER);
        int good = 0;
        List<String> expectedErrors = new ArrayList<>();
        String path = new org.apache.flink.core.fs.Path(file.toUri()).toString();
        for (int i = 0; i < ROWS; i++) {
            int kind = ParquetCorpus.kind(i);
            if (kind == 0) {
                assertThat(rows[good++]).as("row %d: its 1-based row, its id, its text", i)
                        .isEqualTo((long) (i + 1) << 32 | i << 1 | 1);
            } else {
                expectedErrors.add((kind == 1 ? "missing_id" : "empty_text") + " " + path + ":" + (i + 1));
            }
        }
        assertThat(rows).hasSize(good);
        expectedErrors.sort(null);
        assertThat(split.errors()).isEqualTo(expectedErrors);
    }

    /** A document's row, id number, whether its text is its row's, and the subtask that read it. */
    private static final class Tagged extends InputReads.ReaderTag {
        @Override
        protected long tag(Document doc) {
            long row = Long.parseLong(doc.source.substring(doc.source.lastIndexOf(':') + 1));
            int id = Integer.parseInt(doc.id.substring(1));
            long textMatches = doc.text.equals(ParquetCorpus.text((int) row - 1)) ? 1 : 0;
            return row << 32 | (long) id << 1 | textMatches;
        }
    }

    /** A tag less its reader subtask. */
    private static final LongUnaryOperator WITHOUT_READER = d -> d >>> 3;
}
