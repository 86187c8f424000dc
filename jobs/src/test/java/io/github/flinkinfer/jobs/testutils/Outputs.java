package io.github.flinkinfer.jobs.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;

/** Reads a job's committed output files (never in-progress ones) for assertions. */
public final class Outputs {
    private Outputs() {}

    public static List<Path> committed(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean hasInProgressFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.anyMatch(p -> p.getFileName().toString().contains(".inprogress"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parquet rows of the embeddings directory, keyed by id (duplicates fail the test). */
    public static Map<String, GenericRecord> embeddings(Path output) {
        return parquetRows(withSuffix(committed(output.resolve("embeddings")), ".parquet"));
    }

    /** Parquet rows of these files, keyed by id, in file order (duplicates fail the test). */
    public static Map<String, GenericRecord> parquetRows(List<Path> files) {
        Map<String, GenericRecord> rows = new LinkedHashMap<>();
        eachParquetRow(files, r -> {
            String id = r.get("id").toString();
            if (rows.put(id, r) != null) {
                throw new AssertionError("duplicate output id " + id);
            }
        });
        return rows;
    }

    /**
     * Hands each committed embeddings row to {@code row} and keeps none: for outputs too large to
     * hold as Avro records (a row of 384 boxed floats is about 7 KB).
     */
    public static void eachEmbedding(Path output, Consumer<GenericRecord> row) {
        eachParquetRow(withSuffix(committed(output.resolve("embeddings")), ".parquet"), row);
    }

    private static void eachParquetRow(List<Path> files, Consumer<GenericRecord> row) {
        for (Path f : files) {
            try (ParquetReader<GenericRecord> reader =
                    AvroParquetReader.<GenericRecord>builder(new LocalInputFile(f)).build()) {
                GenericRecord r;
                while ((r = reader.read()) != null) {
                    row.accept(r);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static float[] vector(GenericRecord row) {
        List<?> list = (List<?>) row.get("embedding");
        float[] v = new float[list.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = ((Number) list.get(i)).floatValue();
        }
        return v;
    }

    /** The JSON lines of the committed {@code .jsonl} files in this directory. */
    public static List<JsonNode> jsonLines(Path dir) {
        return jsonLines(withSuffix(committed(dir), ".jsonl"));
    }

    /** The JSON lines of these files, blank lines skipped. */
    public static List<JsonNode> jsonLines(List<Path> files) {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        for (Path f : files) {
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

    private static List<Path> withSuffix(List<Path> files, String suffix) {
        return files.stream().filter(f -> f.toString().endsWith(suffix)).toList();
    }

    /** Every input id stands exactly once in the embeddings or the errors of the output. */
    public static void assertEveryIdOnce(Path out, Set<String> inputIds) {
        Set<String> embedded = embeddings(out).keySet(); // fails on a duplicate id
        List<String> failed = new ArrayList<>();
        for (JsonNode e : jsonLines(out.resolve("errors"))) {
            failed.add(e.get("id").asText());
        }
        assertThat(new HashSet<>(failed)).hasSameSizeAs(failed).doesNotContainAnyElementsOf(embedded);
        Set<String> all = new HashSet<>(embedded);
        all.addAll(failed);
        assertThat(all).isEqualTo(inputIds);
    }
}
