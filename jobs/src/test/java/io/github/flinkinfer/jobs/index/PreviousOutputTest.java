package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreviousOutputTest {
    @TempDir Path dir;

    @Test
    void picksTheNewestFinishedRunThenTheNewestPartFileElseNone() throws Exception {
        assertThat(PreviousOutput.resolveRunId(dir.toString(), null)).isNull();
        Path emb = Files.createDirectories(dir.resolve("embeddings"));
        touch(emb.resolve("part-20240601-020000-914397ab-9401-49eb-a723-b63f476b1b92-0.parquet"), 1000);
        touch(emb.resolve("part-20240602-020000-34315d1a-0555-4001-8be0-6f111e5a5604-0.parquet"), 2000);
        assertThat(PreviousOutput.resolveRunId(dir.toString(), null)).isEqualTo("20240602-020000");
        touch(dir.resolve("_SUCCESS-20240601-020000"), 3000);
        assertThat(PreviousOutput.resolveRunId(dir.toString(), null)).isEqualTo("20240601-020000");
        assertThat(PreviousOutput.resolveRunId(dir.toString(), "x")).isEqualTo("x");
        assertThat(PreviousOutput.files(dir.toString(), "20240602-020000")).hasSize(1);
    }

    static void touch(Path p, long millis) throws Exception {
        Files.writeString(p, "");
        Files.setLastModifiedTime(p, FileTime.fromMillis(millis));
    }
}
