package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress line (live counts come from the job's accumulator, see ProgressITCase-style runs) and the total's estimate. */
class ProgressReporterTest {
    @TempDir Path dir;

    @Test
    void theLineShowsDoneTotalRateAndTheFinalLineTheTotals() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        ProgressReporter p = new ProgressReporter(200, new PrintStream(console, true));
        assertThat(p.itemsDone()).as("nothing submitted yet").isZero();
        assertThat(p.line(50, false)).startsWith("progress: 50 / ~200 items, ").contains("items/s, ETA ");
        assertThat(p.line(170, true)).startsWith("progress: done, 170 items in ");
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
