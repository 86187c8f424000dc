package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress line counts each subtask's current attempt once, and ends with the totals. */
class ProgressReporterTest {
    static final String A = "11111111-1111-1111-1111-111111111111";
    static final String B = "22222222-2222-2222-2222-222222222222";
    static final String C = "33333333-3333-3333-3333-333333333333";

    @TempDir Path dir;

    private void rows(String file, long modified, String... rows) throws Exception {
        Path p = dir.resolve(file);
        Files.writeString(p, String.join("\n", rows) + "\n");
        Files.setLastModifiedTime(p, FileTime.fromMillis(modified));
    }

    @Test
    void aReplacedAttemptOfASubtaskIsNotCountedAgain() throws Exception {
        // subtask 0: a killed attempt (writer A, its in-progress file) and its replacement (writer B)
        rows(".part-r-" + A + "-0.jsonl.inprogress." + C, 1_000,
                "{\"subtask\":0,\"items\":100}", "{\"subtask\":0,\"items\":60}");
        rows("part-r-" + B + "-0.jsonl", 5_000, "{\"subtask\":0,\"items\":100}");
        rows(".part-r-" + B + "-1.jsonl.inprogress." + A, 6_000, "{\"subtask\":0,\"items\":40}");
        // subtask 1: one attempt
        rows("part-r-" + C + "-0.jsonl", 2_000, "{\"subtask\":1,\"items\":30}");

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        ProgressReporter p = new ProgressReporter(new org.apache.flink.core.fs.Path(dir.toUri()), 200,
                new PrintStream(console, true));
        assertThat(p.itemsDone()).isEqualTo(100 + 40 + 30);
        p.close(true);
        assertThat(console.toString()).startsWith("progress: done, 170 items in ");
    }

    @Test
    void recordsAreEstimatedFromFileSizesOnAnyFileSystem() throws Exception {
        Path corpus = dir.resolve("in.jsonl");
        Files.writeString(corpus, "{\"id\":1}\n{\"id\":2}\n{\"id\":3}");
        assertThat(ProgressReporter.estimateRecords(List.of(corpus.toUri().toString()))).isEqualTo(3);
        assertThat(ProgressReporter.estimateRecords(List.of(dir.toString()))).isEqualTo(3);
        assertThat(ProgressReporter.estimateRecords(List.of(dir.resolve("missing").toString()))).isEqualTo(-1);
    }
}
