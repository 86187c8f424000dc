package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lines read back as a plain split at {@code \n} gives them, over files far larger than the
 * reader's buffer: a BOM skipped, a final {@code \r} dropped, empty lines, a last line without a
 * newline, lines longer than the buffer, oversized lines skipped but measured, each at its byte
 * offset; a file cut into byte ranges anywhere (in the BOM, at a newline, inside a long line)
 * gives every line once; restored readers resume at a checkpointed offset.
 */
class LineFormatTest {
    private static final int MAX = 100_000;

    @TempDir Path tmp;

    @Test
    void linesComeBackAsASplitAtNewlinesGivesThemAcrossBufferBoundaries() throws Exception {
        for (boolean bom : new boolean[] {false, true}) {
            for (boolean finalNewline : new boolean[] {false, true}) {
                byte[] content = content(new Random(bom ? 3 : 5), finalNewline);
                Path file = tmp.resolve("lines-" + bom + "-" + finalNewline + ".jsonl");
                Files.write(file, bom ? concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, content) : content);
                List<RawLine> expected = expected(content, bom ? 3 : 0);
                assertRecords(read(split(file), false), expected, file);
                FileSourceSplit restored = split(file).updateWithCheckpointedPosition(
                        new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 1_000));
                assertRecords(read(restored, true), expected.subList(1_000, expected.size()), file);
            }
        }
    }

    @Test
    void aFileCutIntoByteRangesAnywhereGivesEveryLineOnce() throws Exception {
        for (boolean bom : new boolean[] {false, true}) {
            for (boolean finalNewline : new boolean[] {false, true}) {
                byte[] content = content(new Random(bom ? 7 : 11), finalNewline);
                byte[] file = bom ? concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, content) : content;
                Path path = Files.write(tmp.resolve("cut-" + bom + "-" + finalNewline + ".jsonl"), file);
                List<RawLine> lines = new ArrayList<>();
                long[] cuts = cuts(file, new Random(13));
                for (int i = 0; i + 1 < cuts.length; i++) {
                    lines.addAll(read(split(path, cuts[i], cuts[i + 1]), false));
                }
                assertRecords(lines, expected(content, bom ? 3 : 0), path);
            }
        }
    }

    @Test
    void aRestoredSplitResumesAtItsCheckpointedOffset() throws Exception {
        byte[] content = content(new Random(17), true);
        Path file = Files.write(tmp.resolve("restore.jsonl"), content);
        List<RawLine> expected = expected(content, 0);
        long half = content.length / 2;
        FileSourceSplit second = split(file, half, content.length);
        List<CheckpointedPosition> positions = new ArrayList<>();
        List<RawLine> records = read(new LineFormat(MAX), second, false, positions);
        int firstOfSplit = expected.size() - records.size();
        for (int done : new int[] {0, 1, 511, 512, 513, records.size() - 1}) {
            FileSourceSplit restored = second.updateWithCheckpointedPosition(positions.get(done));
            assertRecords(read(restored, true), expected.subList(firstOfSplit + done + 1, expected.size()), file);
        }
    }

    /** Range ends: the BOM's bytes, around the first newlines and the buffer's size, and random. */
    private static long[] cuts(byte[] file, Random random) {
        java.util.TreeSet<Long> cuts = new java.util.TreeSet<>();
        for (long i = 0; i <= 8; i++) {
            cuts.add(i);
        }
        int newlines = 0;
        for (int i = 0; i < file.length && newlines < 20; i++) {
            if (file[i] == '\n') {
                newlines++;
                cuts.addAll(List.of((long) i - 1, (long) i, (long) i + 1, (long) i + 2));
            }
        }
        cuts.addAll(List.of(65_535L, 65_536L, 65_537L));
        for (int i = 0; i < 300; i++) {
            cuts.add((long) random.nextInt(file.length));
        }
        cuts.add((long) file.length);
        return cuts.stream().filter(c -> c >= 0 && c <= file.length).mapToLong(Long::longValue).toArray();
    }

    @Test
    void emptyFilesAndABomAloneHaveNoRecordsAndANewlineAloneOneEmptyRecord() throws Exception {
        Path empty = Files.write(tmp.resolve("empty.jsonl"), new byte[0]);
        Path bom = Files.write(tmp.resolve("bom.jsonl"), new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        Path newline = Files.write(tmp.resolve("newline.jsonl"), new byte[] {'\n'});
        assertThat(read(split(empty), false)).isEmpty();
        assertThat(read(split(bom), false)).isEmpty();
        List<RawLine> one = read(split(newline), false);
        assertThat(one).hasSize(1);
        assertThat(one.get(0).bytes).isEmpty();
        assertThat(one.get(0).position()).endsWith("newline.jsonl@0");
    }

    @Test
    void aCsvRecordsQuotedNewlinesStayInItAcrossBufferBoundaries() throws Exception {
        StringBuilder field = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            field.append("x".repeat(99)).append('\n');
        }
        String first = "a1,\"" + field + "\",en";
        Path file = Files.writeString(tmp.resolve("long.csv"), first + "\r\nb2,short,en\n");
        List<RawLine> records = read(LineFormat.csvRecords(MAX * 2), split(file), false);
        assertThat(records).extracting(r -> r.offset).containsExactly(0L, first.length() + 2L);
        assertThat(new String(records.get(0).bytes, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(first);
        assertThat(records.get(0).byteLength).isEqualTo(first.length());
    }

    /**
     * Issue 40: a reader whose file cannot be opened (here: gone since the source listed it) fails
     * its job without restarts, naming the file; fresh and restored readers alike, and Parquet's.
     */
    @Test
    void aFileThatCannotBeOpenedFailsWithoutRestarts() throws Exception {
        Path file = Files.writeString(tmp.resolve("gone.jsonl"), "{}\n");
        FileSourceSplit split = split(file);
        Files.delete(file);
        List<BulkFormat<?, FileSourceSplit>> formats = List.of(new LineFormat(MAX), LineFormat.csvRecords(MAX),
                ParquetInput.format("id", "text"));
        for (BulkFormat<?, FileSourceSplit> format : formats) {
            for (boolean restored : new boolean[] {false, true}) {
                assertThatThrownBy(() -> {
                    if (restored) {
                        format.restoreReader(new Configuration(), split.updateWithCheckpointedPosition(
                                new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 1)));
                    } else {
                        format.createReader(new Configuration(), split);
                    }
                }).as("%s, restored %s", format, restored)
                        .isInstanceOf(io.github.flinkinfer.operators.errors.NonRecoverableLoadException.class)
                        .hasCauseInstanceOf(io.github.flinkinfer.operators.errors.UnreadableInputException.class)
                        .hasMessage("Input " + split.path() + " does not exist");
            }
        }
    }

    /** 3,000 lines: short, empty, CRLF-ended, longer than the 64 KB buffer, oversized. */
    private static byte[] content(Random random, boolean finalNewline) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 3_000; i++) {
            int length = i % 997 == 0 ? MAX + 1 + random.nextInt(50_000) // oversized
                    : i % 331 == 0 ? 65_536 + random.nextInt(20_000) // longer than the buffer
                    : i % 17 == 0 ? 0 : random.nextInt(400);
            for (int k = 0; k < length; k++) {
                out.write('a' + random.nextInt(26));
            }
            if (i % 5 == 0) {
                out.write('\r');
            }
            if (i < 2_999 || finalNewline) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    /**
     * What each record must be: the content split at every newline (none after a final one), at
     * its offset in a file whose content starts at {@code base}.
     */
    private static List<RawLine> expected(byte[] content, int base) {
        List<RawLine> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            if (i == content.length && start == content.length) {
                break;
            }
            if (i == content.length || content[i] == '\n') {
                byte[] raw = Arrays.copyOfRange(content, start, i);
                RawLine l = new RawLine();
                l.offset = base + start;
                l.oversized = raw.length > MAX;
                boolean cr = !l.oversized && raw.length > 0 && raw[raw.length - 1] == '\r';
                l.bytes = l.oversized ? null : cr ? Arrays.copyOf(raw, raw.length - 1) : raw;
                l.byteLength = cr ? raw.length - 1 : raw.length;
                lines.add(l);
                start = i + 1;
            }
        }
        return lines;
    }

    private static void assertRecords(List<RawLine> actual, List<RawLine> expected, Path file) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            RawLine a = actual.get(i);
            RawLine e = expected.get(i);
            String at = file.getFileName() + " record " + i;
            assertThat(a.offset).as(at).isEqualTo(e.offset);
            assertThat(a.oversized).as(at).isEqualTo(e.oversized);
            assertThat(a.byteLength).as(at).isEqualTo(e.byteLength);
            assertThat(a.bytes).as(at).isEqualTo(e.bytes);
            assertThat(a.file).as(at).endsWith(file.getFileName().toString());
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The whole of {@code file} as one split. */
    static FileSourceSplit split(Path file) throws Exception {
        return split(file, 0, Files.size(file));
    }

    /** Bytes {@code from} to {@code to} of {@code file} as one split. */
    static FileSourceSplit split(Path file, long from, long to) throws Exception {
        long size = Files.size(file);
        return new FileSourceSplit(from + "-" + to, new org.apache.flink.core.fs.Path(file.toUri()), from, to - from,
                0, size);
    }

    private static List<RawLine> read(FileSourceSplit split, boolean restored) throws Exception {
        return read(new LineFormat(MAX), split, restored);
    }

    /** Every record {@code format} reads from {@code split}, by a new or a restored reader. */
    static List<RawLine> read(LineFormat format, FileSourceSplit split, boolean restored) throws Exception {
        return read(format, split, restored, new ArrayList<>());
    }

    /** Every record and, in {@code positions}, the position a checkpoint after it would hold. */
    static List<RawLine> read(LineFormat format, FileSourceSplit split, boolean restored,
            List<CheckpointedPosition> positions) throws Exception {
        List<RawLine> out = new ArrayList<>();
        try (BulkFormat.Reader<RawLine> reader = restored
                ? format.restoreReader(new Configuration(), split)
                : format.createReader(new Configuration(), split)) {
            for (BulkFormat.RecordIterator<RawLine> batch; (batch = reader.readBatch()) != null; ) {
                for (RecordAndPosition<RawLine> r; (r = batch.next()) != null; ) {
                    out.add(r.getRecord());
                    positions.add(new CheckpointedPosition(r.getOffset(), r.getRecordSkipCount()));
                }
                batch.releaseBatch();
            }
        }
        return out;
    }
}
