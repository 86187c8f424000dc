package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.testutils.InputReads.Read;
import io.github.flinkinfer.jobs.testutils.InputReads;
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
 * One JSONL file of 1,000,000 lines read at parallelism 4 is cut into byte ranges: every reader
 * subtask reads records, and the documents (id and position) and error rows are exactly those of
 * the same file read unsplit by one reader, each line once at its byte offset.
 */
class SplitLinesITCase {
    private static final int LINES = 1_000_000;

    /** Two TaskManagers with two slots each: four readers in two processes. */
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = MiniClusters.fourSlotsInTwoTaskManagers();

    @TempDir Path tmp;

    @Test
    void aLargeFileIsReadByEveryReaderWithTheDocumentsAndErrorsOfAnUnsplitRead() throws Exception {
        Path file = tmp.resolve("large.jsonl");
        long[] offsets = write(file);
        InputConfig in = Jobs.options("--input", file.toString(), "--output", tmp.resolve("out").toString())
                .inputConfig();

        Read split = InputReads.read(in, 4, null, new InputReads.ByOffset(), LINES);
        Read whole = InputReads.read(in, 1, MemorySize.parse("1g"), new InputReads.ByOffset(), LINES);

        long[] byId = InputReads.assertSplitReadsAsWhole(split, whole, 4, InputReads.OFFSET_AND_ID);
        InputReads.assertAtOffsets(byId, offsets, i -> kind(i) == 0);
        List<String> expectedErrors = new ArrayList<>();
        String path = new org.apache.flink.core.fs.Path(file.toUri()).toString();
        for (int i = 0; i < LINES; i++) {
            if (kind(i) != 0) {
                expectedErrors.add((kind(i) == 1 ? "malformed_json" : "empty_text") + " " + path + "@" + offsets[i]);
            }
        }
        assertThat(split.errors()).containsExactlyInAnyOrderElementsOf(expectedErrors);
    }

    /** 0 a good line, 1 malformed JSON, 2 an empty text. */
    private static int kind(int i) {
        return i % 10_007 == 5 ? 1 : i % 50_021 == 7 ? 2 : 0;
    }

    /** Writes the lines (short, of varying length) and returns each one's byte offset. */
    private static long[] write(Path file) throws Exception {
        long[] offsets = new long[LINES];
        long offset = 0;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            for (int i = 0; i < LINES; i++) {
                String line = switch (kind(i)) {
                    case 1 -> "{\"id\":\"d" + i + "\",\"text\":\n";
                    case 2 -> "{\"id\":\"d" + i + "\",\"text\":\"  \"}\n";
                    default -> "{\"id\":\"d" + i + "\",\"text\":\"t" + "x".repeat(i % 13) + "\"}\n";
                };
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                offsets[i] = offset;
                offset += bytes.length;
                out.write(bytes);
            }
        }
        return offsets;
    }
}
