package io.github.flinkinfer.jobs.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;

/** One run's committed files in an output directory that may hold several runs. */
final class RunFiles {
    private RunFiles() {}

    static List<Path> of(Path dir, String runId, String suffix) {
        return Outputs.committed(dir).stream()
                .filter(p -> p.getFileName().toString().startsWith("part-" + runId + "-"))
                .filter(p -> p.getFileName().toString().endsWith(suffix))
                .toList();
    }

    /** Parquet rows of the run by id; a duplicate id fails. */
    static Map<String, GenericRecord> embeddings(Path output, String runId) {
        Map<String, GenericRecord> rows = new LinkedHashMap<>();
        for (Path f : of(output.resolve("embeddings"), runId, ".parquet")) {
            try (ParquetReader<GenericRecord> reader =
                    AvroParquetReader.<GenericRecord>builder(new LocalInputFile(f)).build()) {
                GenericRecord r;
                while ((r = reader.read()) != null) {
                    if (rows.put(r.get("id").toString(), r) != null) {
                        throw new AssertionError("duplicate output id " + r.get("id"));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }

    static List<JsonNode> jsonLines(Path dir, String runId) {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        for (Path f : of(dir, runId, ".jsonl")) {
            try {
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank()) {
                        out.add(json.readTree(line));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static double cosine(float[] a, float[] b) {
        return io.github.flinkinfer.runtime.Vectors.cosine(a, b);
    }
}
