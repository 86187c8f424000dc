package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note for CSV inputs that are fewer files than the readers (a CSV file is one split). */
class FileInputsCsvNoteTest {
    @Test
    void fewerCsvFilesThanReadersGetANote(@TempDir java.nio.file.Path dir) throws Exception {
        String rows = "id,text\n" + "1,some text\n".repeat(400_000); // 4.8 MB: a JSONL file this size is cut for 4 readers
        java.nio.file.Path a = Files.writeString(dir.resolve("a.csv"), rows);
        java.nio.file.Path b = Files.writeString(dir.resolve("b.csv"), rows);
        java.nio.file.Path small = Files.writeString(dir.resolve("small.csv"), "id,text\n1,x\n");
        Path fileA = new Path(a.toUri());
        Path fileB = new Path(b.toUri());

        assertThat(FileInputs.csvNote(List.of(fileA), 4)).hasValueSatisfying(note -> assertThat(note)
                .startsWith("note: 1 CSV file(s) for 4 readers")
                .contains("give at least 4 files, or JSONL or Parquet"));
        assertThat(FileInputs.csvNote(List.of(fileA, fileB), 4)).isPresent();
        assertThat(FileInputs.csvNote(List.of(fileA), 16)).as("too small to cut for 16 readers").isEmpty();
        assertThat(FileInputs.csvNote(List.of(new Path(small.toUri())), 4)).isEmpty();
        assertThat(FileInputs.csvNote(List.of(fileA, fileB), 2)).as("a reader per file").isEmpty();
        assertThat(FileInputs.csvNote(List.of(fileA), 1)).isEmpty();
        assertThat(FileInputs.csvNote(List.of(new Path(dir.toUri())), 16)).as("a directory's files are not counted").isEmpty();
        assertThat(FileInputs.csvNote(null, 16)).as("no CSV input").isEmpty();
        assertThat(FileInputs.csvNote(List.of(new Path(dir.resolve("missing.csv").toUri())), 16)).isEmpty();
    }
}
