package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.testutils.InputReads.Read;
import io.github.flinkinfer.jobs.testutils.InputReads;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.operators.Document;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.apache.flink.api.common.functions.RichMapFunction;
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

        Read split = InputReads.read(in, 4, null, new Tagged(), LINES);
        Read whole = InputReads.read(in, 1, MemorySize.parse("1g"), new Tagged(), LINES);

        long[] byId = InputReads.assertSplitReadsAsWhole(split, whole, 4, WITHOUT_READER);
        int good = 0;
        for (int i = 0; i < LINES; i++) {
            if (kind(i) == 0) {
                assertThat(byId[good] >>> 20).as("line %d's offset", i).isEqualTo(offsets[i]);
                assertThat(byId[good] & ((1 << 20) - 1)).isEqualTo(i);
                good++;
            }
        }
        assertThat(byId).hasSize(good);
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

    /** A document's offset and id number, and the subtask that read it (the parser is chained to its reader). */
    private static final class Tagged extends RichMapFunction<Document, Long> {
        @Override
        public Long map(Document doc) {
            long offset = Long.parseLong(doc.source.substring(doc.source.lastIndexOf('@') + 1));
            long id = Long.parseLong(doc.id.substring(1));
            return offset << 23 | id << 3 | getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        }
    }

    /** A tag less its reader subtask: offset and id ({@code offset << 20 | id}). */
    private static final LongUnaryOperator WITHOUT_READER = d -> (d >>> 23) << 20 | ((d >>> 3) & ((1 << 20) - 1));
}
