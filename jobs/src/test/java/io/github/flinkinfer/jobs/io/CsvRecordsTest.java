package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.testutils.QuotedCsv;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV records read whole across the newlines of quoted fields, numbered by their first line, and
 * parsed by {@link RecordParser}; a restored reader skips whole records.
 */
class CsvRecordsTest {
    @TempDir Path tmp;

    @Test
    void quotedNewlinesStayInTheirRecordWhichKeepsItsFirstLine() throws Exception {
        List<RawLine> records = read(split(), false);
        assertThat(records).extracting(r -> r.line)
                .containsExactly(1L, 2L, 4L, 5L, 6L, 8L, 11L, 12L, 13L, 14L);
        assertThat(new String(records.get(1).bytes, StandardCharsets.UTF_8))
                .isEqualTo("c1,\"A field holding\ntwo lines\",en");
        assertThat(new String(records.get(2).bytes, StandardCharsets.UTF_8))
                .as("a record's final CR is dropped").endsWith("\",en");
        assertThat(new String(records.get(9).bytes, StandardCharsets.UTF_8))
                .as("an open quote runs to the end of the file")
                .isEqualTo("b3,\"never closed,en\nc7,swallowed by b3,en\n");
    }

    @Test
    void everyGoodRecordIsParsedOnceAndEveryBrokenOneIsAnErrorAtItsFirstLine() throws Exception {
        var parser = ProcessFunctionTestHarnesses.forProcessFunction(
                new RecordParser(InputFormat.CSV, "id", "text", 1 << 20));
        for (RawLine r : read(split(), false)) {
            parser.processElement(r, 0);
        }
        List<Document> docs = parser.extractOutputValues();
        assertThat(docs.stream().collect(Collectors.toMap(d -> d.id, d -> d.text)))
                .isEqualTo(QuotedCsv.GOOD);
        assertThat(docs).hasSize(QuotedCsv.GOOD.size());
        assertThat(docs).filteredOn(d -> d.id.equals("c4")).extracting(d -> d.source)
                .singleElement().asString().endsWith("/quoted.csv:8"); // the whole path
        List<ErrorRecord> errors = new ArrayList<>();
        parser.getSideOutput(Outputs.ERRORS).forEach(e -> errors.add(e.getValue()));
        Map<Integer, String> byLine = errors.stream().collect(Collectors.toMap(
                e -> Integer.parseInt(e.source.replaceAll(".*/quoted\\.csv:", "")), e -> e.reason));
        assertThat(byLine).isEqualTo(QuotedCsv.ERRORS);
        assertThat(errors.toString()).as("no input text in errors").doesNotContain("oops");
    }

    @Test
    void aRestoredReaderSkipsWholeRecordsNotLines() throws Exception {
        FileSourceSplit split = split().updateWithCheckpointedPosition(
                new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 3));
        assertThat(read(split, true)).extracting(r -> r.line)
                .containsExactly(5L, 6L, 8L, 11L, 12L, 13L, 14L);
    }

    private FileSourceSplit split() throws Exception {
        Path file = tmp.resolve("quoted.csv");
        Files.writeString(file, QuotedCsv.CONTENT);
        return LineFormatTest.split(file);
    }

    private static List<RawLine> read(FileSourceSplit split, boolean restored) throws Exception {
        return LineFormatTest.read(LineFormat.csvRecords(1 << 20), split, restored);
    }
}
