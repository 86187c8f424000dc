package io.github.flinkinfer.jobs.index;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;

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
        return Outputs.parquetRows(of(output.resolve("embeddings"), runId, ".parquet"));
    }

    static List<JsonNode> jsonLines(Path dir, String runId) {
        return Outputs.jsonLines(of(dir, runId, ".jsonl"));
    }

    static double cosine(float[] a, float[] b) {
        return io.github.flinkinfer.runtime.Vectors.cosine(a, b);
    }
}
