package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.testutils.InputReads;
import io.github.flinkinfer.jobs.testutils.InputReads.Read;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One CSV file of 300,000 records (texts quoted where they hold a comma, some over several lines,
 * some with {@code ""}, broken records among them) read at parallelism 4 is cut into byte ranges:
 * every reader subtask reads records, and the documents (id and position) and error rows are
 * exactly those of the same file read unsplit by one reader, each record once at its byte offset.
 */
class SplitCsvITCase {
    private static final int RECORDS = 300_000;

    /** Two TaskManagers with two slots each: four readers in two processes. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = MiniClusters.fourSlotsInTwoTaskManagers();

    @TempDir Path tmp;

    @Test
    void aLargeCsvIsReadByEveryReaderWithTheDocumentsAndErrorsOfAnUnsplitRead() throws Exception {
        Path file = tmp.resolve("large.csv");
        long[] offsets = write(file);
        InputConfig in = Jobs.options("--input", file.toString(), "--output", tmp.resolve("out").toString())
                .inputConfig();

        Read split = InputReads.read(in, 4, MemorySize.parse("512kb"), new InputReads.ByOffset(), RECORDS);
        Read whole = InputReads.read(in, 1, MemorySize.parse("1g"), new InputReads.ByOffset(), RECORDS);

        long[] byId = InputReads.assertSplitReadsAsWhole(split, whole, 4, InputReads.OFFSET_AND_ID);
        InputReads.assertAtOffsets(byId, offsets, i -> kind(i) != 1);
        List<String> expectedErrors = new ArrayList<>();
        String path = new org.apache.flink.core.fs.Path(file.toUri()).toString();
        for (int i = 0; i < RECORDS; i++) {
            if (kind(i) == 1) {
                expectedErrors.add("malformed_csv " + path + "@" + offsets[i]);
            }
        }
        assertThat(split.errors()).containsExactlyInAnyOrderElementsOf(expectedErrors);
    }

    /** 0 an unquoted text, 1 text after a closing quote (malformed), 2 quoted over two lines, 3 quoted with a comma and {@code ""}. */
    private static int kind(int i) {
        return i % 10_007 == 5 ? 1 : i % 13 == 0 ? 2 : i % 3 == 0 ? 3 : 0;
    }

    /** Writes a header and the records; returns each record's byte offset. */
    private static long[] write(Path file) throws Exception {
        long[] offsets = new long[RECORDS];
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            byte[] header = "id,text,lang\n".getBytes(StandardCharsets.UTF_8);
            out.write(header);
            long offset = header.length;
            for (int i = 0; i < RECORDS; i++) {
                String text = "t" + "x".repeat(i % 11);
                String record = switch (kind(i)) {
                    case 1 -> "d" + i + ",\"" + text + "\" after,en\n";
                    case 2 -> "d" + i + ",\"" + text + "\nsecond line\",en\r\n";
                    case 3 -> "d" + i + ",\"" + text + ", \"\"quoted\"\"\",en\n";
                    default -> "d" + i + "," + text + ",en\n";
                };
                byte[] bytes = record.getBytes(StandardCharsets.UTF_8);
                offsets[i] = offset;
                offset += bytes.length;
                out.write(bytes);
            }
        }
        return offsets;
    }
}
