package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.testutils.QuotedCsv;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CSV records read whole across the newlines of quoted fields, each at the offset of its first
 * byte, and parsed by {@link RecordParser}. A file cut into byte ranges anywhere gives every
 * record once, as the unsplit read gives it, with the header passed on first by every split; a
 * restored reader resumes at any checkpointed position.
 */
class CsvRecordsTest {
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    @TempDir Path tmp;

    @Test
    void quotedNewlinesStayInTheirRecordWhichIsAtItsFirstByte() throws Exception {
        List<RawLine> records = read(split(), false);
        assertThat(records).extracting(r -> QuotedCsv.lineAt(r.offset))
                .containsExactly(1, 2, 4, 5, 6, 8, 11, 12, 13, 14);
        assertThat(records).extracting(r -> r.header).containsExactly(true, false, false, false, false,
                false, false, false, false, false);
        assertThat(new String(records.get(1).bytes, StandardCharsets.UTF_8))
                .isEqualTo("c1,\"A field holding\ntwo lines\",en");
        assertThat(new String(records.get(2).bytes, StandardCharsets.UTF_8))
                .as("a record's final CR is dropped").endsWith("\",en");
        assertThat(new String(records.get(9).bytes, StandardCharsets.UTF_8))
                .as("an open quote runs to the end of the file")
                .isEqualTo("b3,\"never closed,en\nc7,swallowed by b3,en\n");
    }

    @Test
    void everyGoodRecordIsParsedOnceAndEveryBrokenOneIsAnErrorAtItsFirstByte() throws Exception {
        var parser = parser();
        for (RawLine r : read(split(), false)) {
            parser.processElement(r, 0);
        }
        List<Document> docs = parser.extractOutputValues();
        assertThat(docs.stream().collect(Collectors.toMap(d -> d.id, d -> d.text)))
                .isEqualTo(QuotedCsv.GOOD);
        assertThat(docs).hasSize(QuotedCsv.GOOD.size());
        int c4 = QuotedCsv.CONTENT.indexOf("c4,");
        assertThat(docs).filteredOn(d -> d.id.equals("c4")).extracting(d -> d.source)
                .singleElement().asString().endsWith("/quoted.csv@" + c4); // the whole path
        List<ErrorRecord> errors = new ArrayList<>();
        parser.getSideOutput(Outputs.ERRORS).forEach(e -> errors.add(e.getValue()));
        Map<Integer, String> byLine = errors.stream().collect(Collectors.toMap(
                e -> QuotedCsv.lineOf(e.source), e -> e.reason));
        assertThat(byLine).isEqualTo(QuotedCsv.ERRORS);
        assertThat(errors.toString()).as("no input text in errors").doesNotContain("oops");
    }

    /** Cut into 1 to 80 ranges, and as many ranges as bytes, with and without a BOM. */
    @Test
    void theQuotedFileCutIntoRangesGivesEveryRecordOnceAndItsHeaderToEverySplit() throws Exception {
        for (boolean bom : new boolean[] {false, true}) {
            byte[] content = QuotedCsv.CONTENT.getBytes(StandardCharsets.UTF_8);
            byte[] bytes = bom ? concat(BOM, content) : content;
            Path file = Files.write(tmp.resolve("quoted-" + bom + ".csv"), bytes);
            List<RawLine> whole = read(ranges(file, 1).get(0), false);
            for (int count = 1; count <= 80; count++) {
                assertRangesReadAsWhole(file, count, whole);
            }
            assertRangesReadAsWhole(file, bytes.length, whole);
        }
    }

    /**
     * 20,000 generated records: quoted fields holding newlines, CRLFs, commas and {@code ""},
     * stray quotes, text after a closing quote, records longer than the reader's buffer and
     * oversized ones, and a quote never closed near the end; cut into 2 to 1,000 ranges.
     */
    @Test
    void aGeneratedFileCutIntoRangesGivesEveryRecordOnce() throws Exception {
        for (boolean bom : new boolean[] {false, true}) {
            byte[] content = generated(new Random(bom ? 31 : 37));
            byte[] bytes = bom ? concat(BOM, content) : content;
            Path file = Files.write(tmp.resolve("generated-" + bom + ".csv"), bytes);
            List<RawLine> whole = read(ranges(file, 1).get(0), false);
            assertThat(whole.size()).isGreaterThan(15_000);
            assertThat(whole).filteredOn(r -> r.oversized).isNotEmpty();
            for (int count : new int[] {2, 3, 7, 16, 61, 1_000}) {
                assertRangesReadAsWhole(file, count, whole);
            }
        }
    }

    /** A file without a quote: no range but the first can tell where its records start. */
    @Test
    void aFileWithoutQuotesIsReadByItsFirstRange() throws Exception {
        StringBuilder csv = new StringBuilder("id,text\n");
        for (int i = 0; i < 1_000; i++) {
            csv.append("q").append(i).append(",plain text\n");
        }
        Path file = Files.writeString(tmp.resolve("unquoted.csv"), csv);
        List<FileSourceSplit> ranges = ranges(file, 4);
        assertThat(read(ranges.get(0), false)).hasSize(1_001);
        for (FileSourceSplit later : ranges.subList(1, 4)) {
            assertThat(read(later, false)).isEmpty();
        }
    }

    @Test
    void aRestoredSplitResumesAtItsCheckpointedPositionsWithItsHeaderFirst() throws Exception {
        byte[] bytes = generated(new Random(43));
        Path file = Files.write(tmp.resolve("restore.csv"), bytes);
        List<FileSourceSplit> ranges = ranges(file, 3);
        for (int s = 0; s < ranges.size(); s++) {
            FileSourceSplit split = ranges.get(s);
            List<CheckpointedPosition> positions = new ArrayList<>();
            List<RawLine> records = LineFormatTest.read(LineFormat.csvRecords(MAX), split, false, positions);
            TreeSet<Integer> after = new TreeSet<>(List.of(510, 511, 512, 513, 514, 1_022, 1_023, 1_024, 1_025));
            for (int done = 0; done < records.size(); done += done < 20 ? 1 : 997) {
                after.add(done); // the first records, around batch ends (512 records), then every 997th
            }
            for (int done : after.headSet(records.size())) {
                List<RawLine> rest = read(split.updateWithCheckpointedPosition(positions.get(done)), true);
                List<RawLine> expected = new ArrayList<>(records.subList(done + 1, records.size()));
                if (!expected.isEmpty() && !expected.get(0).header) {
                    expected.add(0, records.stream().filter(r -> r.header).findFirst().orElseThrow());
                }
                assertSame(rest, expected, "split " + s + " restored after record " + done);
            }
        }
    }

    @Test
    void aReaderRestoredFromACheckpointOfAnUnsplitCsvSkipsWholeRecordsFromTheStart() throws Exception {
        FileSourceSplit split = split().updateWithCheckpointedPosition(
                new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 3));
        List<RawLine> records = read(split, true);
        assertThat(records).extracting(r -> QuotedCsv.lineAt(r.offset)).containsExactly(1, 5, 6, 8, 11, 12, 13, 14);
        assertThat(records.get(0).header).as("the header first, for the parser").isTrue();
    }

    @Test
    void everySplitsParserGetsTheColumnsAndAHeaderItCannotUseFailsTheJob() throws Exception {
        Path file = Files.writeString(tmp.resolve("columns.csv"), "lang,text,id\nen,\"first, one\",a1\nen,\"second, two\",a2\n");
        var parser = parser();
        for (RawLine r : read(ranges(file, 2).get(1), false)) { // from byte 26, in a1's record
            parser.processElement(r, 0);
        }
        assertThat(parser.extractOutputValues()).extracting(d -> d.id + "=" + d.text).containsExactly("a2=second, two");

        Path noId = Files.writeString(tmp.resolve("no-id.csv"), "lang,text\nen,first\n");
        var other = parser();
        RawLine header = read(ranges(noId, 1).get(0), false).get(0);
        assertThatThrownBy(() -> other.processElement(header, 0))
                .hasMessageContaining("no-id.csv needs header columns 'id' and 'text'");
    }

    private static final int MAX = 200_000;

    /** Reads each of {@code count} ranges and compares the records with the unsplit read's. */
    private void assertRangesReadAsWhole(Path file, int count, List<RawLine> whole) throws Exception {
        RawLine header = whole.isEmpty() ? null : whole.get(0);
        List<RawLine> all = new ArrayList<>();
        List<FileSourceSplit> ranges = ranges(file, count);
        for (int i = 0; i < ranges.size(); i++) {
            List<RawLine> records = read(ranges.get(i), false);
            String at = file.getFileName() + " in " + count + " ranges, range " + i;
            for (int r = 0; r < records.size(); r++) {
                if (records.get(r).header) {
                    assertThat(r).as(at + ": the header comes first").isZero();
                    assertSame(List.of(records.get(r)), List.of(header), at);
                }
            }
            all.addAll(records.isEmpty() || !records.get(0).header || i == 0 ? records : records.subList(1, records.size()));
        }
        assertSame(all, whole, file.getFileName() + " in " + count + " ranges");
    }

    /** {@code file} cut into {@code count} ranges as the job's enumerator cuts it. */
    static List<FileSourceSplit> ranges(Path file, int count) throws Exception {
        FileSourceSplit whole = LineFormatTest.split(file);
        List<FileSourceSplit> ranges = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            ranges.add(ByteRangeEnumerator.range("r", whole, k, count));
        }
        return ranges;
    }

    private static void assertSame(List<RawLine> actual, List<RawLine> expected, String at) {
        assertThat(actual).as(at).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            RawLine a = actual.get(i);
            RawLine e = expected.get(i);
            String record = at + " record " + i;
            assertThat(a.offset).as(record).isEqualTo(e.offset);
            assertThat(a.header).as(record).isEqualTo(e.header);
            assertThat(a.oversized).as(record).isEqualTo(e.oversized);
            assertThat(a.byteLength).as(record).isEqualTo(e.byteLength);
            assertThat(a.bytes).as(record).isEqualTo(e.bytes);
            assertThat(a.file).as(record).isEqualTo(e.file);
        }
    }

    private static byte[] generated(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, "id,text,lang\n");
        String[] pieces = {"word", " ", ",", "\n", "\r\n", "\"\"", "x\"y", "é", "日本"};
        for (int i = 0; i < 20_000; i++) {
            int kind = random.nextInt(20);
            StringBuilder text = new StringBuilder();
            int length = i % 4_001 == 0 ? MAX + 1 : i % 1_999 == 0 ? 70_000 : random.nextInt(12);
            while (text.length() < length) {
                text.append(length > 100 ? "long text\n" : pieces[random.nextInt(pieces.length)]);
            }
            String body = text.toString();
            String field = switch (kind) {
                case 0 -> body.replace("\n", " ").replace("\"", "").replace(",", "") + "x\"y"; // a stray quote
                case 1 -> "\"" + body.replace("\"\"", "'") + "\" trailing"; // text after the closing quote
                case 2, 3 -> body.replace("\n", " ").replace("\"", "").replace(",", ""); // unquoted
                default -> "\"" + body + "\""; // quoted: newlines, commas, "" escapes
            };
            write(out, "r" + i + "," + field + (random.nextBoolean() ? ",en\n" : ",en\r\n"));
            if (i == 19_000) {
                write(out, "open,\"never closed,en\n"); // swallows the rest of the file
            }
        }
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness<RawLine, Document> parser()
            throws Exception {
        return ProcessFunctionTestHarnesses.forProcessFunction(new RecordParser(InputFormat.CSV, "id", "text", MAX));
    }

    private FileSourceSplit split() throws Exception {
        Path file = tmp.resolve("quoted.csv");
        Files.writeString(file, QuotedCsv.CONTENT);
        return LineFormatTest.split(file);
    }

    private static List<RawLine> read(FileSourceSplit split, boolean restored) throws Exception {
        return LineFormatTest.read(LineFormat.csvRecords(MAX), split, restored);
    }
}
