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
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Reads corpus files (JSONL, CSV, text, Parquet) through {@link FileSource} and parses them in
 * the reading subtask; one source per format. Every record's position names its file's whole
 * path ({@code <path>:<line>}, Parquet {@code <path>:<row>}), so same-named files in two
 * directories give distinct positions.
 *
 * <pre>{@code
 * ParsedInput input = FileInputs.read(env, options.inputConfig());
 * }</pre>
 */
public final class FileInputs {
    private FileInputs() {}

    public static ParsedInput read(StreamExecutionEnvironment env, InputConfig in) {
        List<DataStream<ErrorRecord>> errors = new ArrayList<>();
        DataStream<Document> docs = null;
        for (Map.Entry<InputFormat, List<Path>> e : inputsByFormat(in).entrySet()) {
            SingleOutputStreamOperator<Document> parsed = read(env, e.getKey(), e.getValue(), in);
            errors.add(parsed.getSideOutput(Outputs.ERRORS));
            docs = docs == null ? parsed : docs.union(parsed);
        }
        return new ParsedInput(docs, errors);
    }

    private static SingleOutputStreamOperator<Document> read(
            StreamExecutionEnvironment env, InputFormat format, List<Path> paths, InputConfig in) {
        Path[] array = paths.toArray(new Path[0]);
        String name = "read-" + format.name().toLowerCase(java.util.Locale.ROOT);
        if (format == InputFormat.PARQUET) {
            DataStream<ParquetInput.Row> rows =
                    env.fromSource(
                            FileSource.forBulkFileFormat(
                                            ParquetInput.format(in.idField(), in.textField()), array)
                                    .build(),
                            WatermarkStrategy.noWatermarks(),
                            name);
            return rows.process(new ParquetInput.ToDocument())
                    .name("parse-parquet")
                    .uid("parse-parquet");
        }
        LineFormat records = format == InputFormat.CSV
                ? LineFormat.csvRecords(in.maxRecordBytes()) : new LineFormat(in.maxRecordBytes());
        DataStream<RawLine> lines =
                env.fromSource(
                        FileSource.forBulkFileFormat(records, array).build(),
                        WatermarkStrategy.noWatermarks(),
                        name);
        return lines.process(new RecordParser(format, in.idField(), in.textField(), in.maxRecordBytes()))
                .name("parse-" + format.name().toLowerCase(java.util.Locale.ROOT))
                .uid("parse-" + format.name().toLowerCase(java.util.Locale.ROOT));
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
                throw new IllegalArgumentException("Input directory " + input + " has no files");
            }
            InputFormat format = InputFormat.fromFileName(files.get(0).getName());
            for (File file : files) {
                if (!file.getName().startsWith(".") && InputFormat.fromFileName(file.getName()) != format) {
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

    /** The regular files of a local input directory; a listing that fails says why. */
    private static List<File> filesOf(java.nio.file.Path dir, String input) {
        try (java.util.stream.Stream<java.nio.file.Path> entries = java.nio.file.Files.list(dir)) {
            return entries.filter(java.nio.file.Files::isRegularFile).map(java.nio.file.Path::toFile)
                    .sorted().toList();
        } catch (java.io.IOException e) {
            throw unreadable(input, e);
        } catch (java.io.UncheckedIOException e) { // a listing that fails after opening
            throw unreadable(input, e.getCause());
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
