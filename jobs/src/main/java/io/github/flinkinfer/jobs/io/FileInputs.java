package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.Outputs;
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
        if (f.isDirectory()) {
            File[] files = f.listFiles(File::isFile);
            if (files == null || files.length == 0) {
                throw new IllegalArgumentException("Input directory " + input + " has no files");
            }
            InputFormat format = InputFormat.fromFileName(files[0].getName());
            for (File file : files) {
                if (!file.getName().startsWith(".") && InputFormat.fromFileName(file.getName()) != format) {
                    throw new IllegalArgumentException(
                            "Input directory " + input + " mixes formats; pass --format");
                }
            }
            return format;
        }
        if (input.contains("://") || f.exists()) {
            return InputFormat.fromFileName(f.getName());
        }
        throw new IllegalArgumentException("Input " + input + " does not exist");
    }
}
