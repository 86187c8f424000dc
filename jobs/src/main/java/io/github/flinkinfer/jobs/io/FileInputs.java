package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.enumerate.DefaultFileFilter;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Reads corpus files (JSONL, CSV, text, Parquet) through {@link FileSource} and parses them in
 * the reading subtask; one source per format. A directory is read whole, subfolders included,
 * skipping names that start with '_' or '.' at every level (FileSource's own rule). JSONL, CSV
 * and text files are read in byte ranges ({@link ByteRangeEnumerator}), Parquet files by the row
 * groups of such ranges ({@link ParquetInput}), so one large file is read by every reader. Every
 * record's position names its file's whole path ({@code <path>@<offset>} for JSONL, CSV and text,
 * Parquet {@code <path>:<row>}), so same-named files in two directories give distinct positions.
 *
 * <pre>{@code
 * ParsedInput input = FileInputs.read(env, options.inputConfig());
 * }</pre>
 */
public final class FileInputs {
    /** Which files and folders under an input directory are read: FileSource's own default. */
    private static final DefaultFileFilter READ = new DefaultFileFilter();

    private FileInputs() {}

    public static ParsedInput read(StreamExecutionEnvironment env, InputConfig in) {
        List<DataStream<ErrorRecord>> errors = new ArrayList<>();
        DataStream<Document> docs = null;
        Map<InputFormat, List<Path>> byFormat = inputsByFormat(in);
        InputFiles.check(in.files()); // before submission: one line for an input no reader can open
        for (Map.Entry<InputFormat, List<Path>> e : byFormat.entrySet()) {
            SingleOutputStreamOperator<Document> parsed = read(env, e.getKey(), e.getValue(), in, "", 0);
            errors.add(parsed.getSideOutput(Outputs.ERRORS));
            docs = docs == null ? parsed : docs.union(parsed);
        }
        return new ParsedInput(docs, errors, parallelism -> readAgain(env, in, byFormat, parallelism));
    }

    /**
     * The same inputs read by sources of their own, named {@code ids-…}, at {@code parallelism}
     * (0: the job's); their parse errors dropped.
     */
    private static DataStream<Document> readAgain(StreamExecutionEnvironment env, InputConfig in,
            Map<InputFormat, List<Path>> byFormat, int parallelism) {
        DataStream<Document> docs = null;
        for (Map.Entry<InputFormat, List<Path>> e : byFormat.entrySet()) {
            DataStream<Document> parsed = read(env, e.getKey(), e.getValue(), in, "ids-", parallelism);
            docs = docs == null ? parsed : docs.union(parsed);
        }
        return docs;
    }

    private static SingleOutputStreamOperator<Document> read(StreamExecutionEnvironment env, InputFormat format,
            List<Path> paths, InputConfig in, String prefix, int parallelism) {
        Path[] array = paths.toArray(new Path[0]);
        String name = prefix + "read-" + format.name().toLowerCase(java.util.Locale.ROOT);
        if (format == InputFormat.PARQUET) {
            DataStreamSource<ParquetInput.Row> rows = env.fromSource(
                    inByteRanges(env, FileSource.forBulkFileFormat(ParquetInput.format(in.idField(), in.textField()),
                            array)),
                    WatermarkStrategy.noWatermarks(),
                    name);
            return ParsedInput.atParallelism(rows, rows.process(new ParquetInput.ToDocument())
                    .name(prefix + "parse-parquet")
                    .uid(prefix + "parse-parquet"), parallelism);
        }
        LineFormat records = format == InputFormat.CSV
                ? LineFormat.csvRecords(in.maxRecordBytes()) : new LineFormat(in.maxRecordBytes());
        FileSource.FileSourceBuilder<RawLine> source = FileSource.forBulkFileFormat(records, array);
        DataStreamSource<RawLine> lines =
                env.fromSource(
                        inByteRanges(env, source),
                        WatermarkStrategy.noWatermarks(),
                        name);
        return ParsedInput.atParallelism(lines, lines.process(
                        new RecordParser(format, in.idField(), in.textField(), in.maxRecordBytes()))
                .name(prefix + "parse-" + format.name().toLowerCase(java.util.Locale.ROOT))
                .uid(prefix + "parse-" + format.name().toLowerCase(java.util.Locale.ROOT)), parallelism);
    }

    /** {@code source} with its files cut into byte ranges ({@link ByteRangeEnumerator}). */
    private static <T> FileSource<T> inByteRanges(StreamExecutionEnvironment env, FileSource.FileSourceBuilder<T> source) {
        return source.setFileEnumerator(ByteRangeEnumerator.provider(
                env.getConfiguration().getOptional(ByteRangeEnumerator.SPLIT_SIZE).orElse(null))).build();
    }

    /** Groups the inputs by format: --format, else each file's (or directory's files') extension. */
    static Map<InputFormat, List<Path>> inputsByFormat(InputConfig in) {
        Map<InputFormat, List<Path>> byFormat = new LinkedHashMap<>();
        for (String input : in.files()) {
            InputFormat format = in.format() != null ? in.format() : guess(input);
            byFormat.computeIfAbsent(format, f -> new ArrayList<>()).add(new Path(input));
        }
        if (byFormat.isEmpty()) {
            throw new IllegalArgumentException("No --input given");
        }
        return byFormat;
    }

    private static InputFormat guess(String input) {
        File f = new File(input);
        if (input.contains("://")) {
            fileSystem(input);
            return InputFormat.fromFileName(f.getName());
        }
        if (f.isDirectory()) {
            List<File> files = filesOf(f.toPath(), input);
            if (files.isEmpty()) {
                throw new IllegalArgumentException("Input directory " + input + " has no files to read"
                        + " (its subfolders included; names starting with '_' or '.' are skipped)");
            }
            InputFormat format = InputFormat.fromFileName(files.get(0).getName());
            for (File file : files) {
                if (InputFormat.fromFileName(file.getName()) != format) {
                    throw new IllegalArgumentException(
                            "Input directory " + input + " mixes formats; pass --format");
                }
            }
            return format;
        }
        if (f.exists()) {
            return InputFormat.fromFileName(f.getName());
        }
        throw new IllegalArgumentException("Input " + input + " does not exist");
    }

    /**
     * The files {@link FileSource} reads under a local input directory, in order: every level
     * down, a file or folder whose name starts with '_' or '.' skipped (Flink's {@link
     * DefaultFileFilter}, which its enumerator applies at each level). A listing that fails says why.
     */
    private static List<File> filesOf(java.nio.file.Path dir, String input) {
        List<File> files = new ArrayList<>();
        collect(dir, input, files);
        return files;
    }

    private static void collect(java.nio.file.Path dir, String shown, List<File> files) {
        List<java.nio.file.Path> entries;
        try (java.util.stream.Stream<java.nio.file.Path> listing = java.nio.file.Files.list(dir)) {
            entries = listing.sorted().toList();
        } catch (java.io.IOException e) {
            throw unreadable(shown, e);
        } catch (java.io.UncheckedIOException e) { // a listing that fails after opening
            throw unreadable(shown, e.getCause());
        }
        for (java.nio.file.Path entry : entries) {
            if (!READ.test(new Path(entry.toUri()))) {
                continue;
            }
            if (java.nio.file.Files.isDirectory(entry)) {
                collect(entry, entry.toString(), files);
            } else if (java.nio.file.Files.isRegularFile(entry)) {
                files.add(entry.toFile());
            }
        }
    }

    private static IllegalArgumentException unreadable(String input, java.io.IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return new IllegalArgumentException("Input directory " + input + " cannot be read: permission"
                    + " denied for user " + System.getProperty("user.name") + "; grant it read and execute"
                    + " permission (chmod u+rx, or a+rx) or run as a user who has them", e);
        }
        return new IllegalArgumentException("Input directory " + input + " cannot be listed: " + e, e);
    }

    /** Flink's file system for a URI input, or a message saying what is missing (S3: the plugin). */
    private static void fileSystem(String input) {
        try {
            new Path(input).getFileSystem();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("No Flink file system for --input '" + input + "': "
                    + e.getMessage() + " (on the embedded cluster: the plugin under $FLINK_PLUGINS_DIR and"
                    + " its settings in $FLINK_CONF_DIR/config.yaml; docs/operations.md, Running on S3)", e);
        }
    }
}
