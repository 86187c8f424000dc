package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * The issue's SQL ({@code CREATE MODEL ... 'provider' = 'onnx'}, {@code ML_PREDICT}) on a
 * MiniCluster gives the DataStream job's embeddings, row for row; bad rows come back once, with
 * NULL embeddings and an error code.
 */
class SqlEmbeddingITCase extends ClusterTestBase {
    private static final int ROWS = 300;

    @Test
    void mlPredictMatchesTheDataStreamJobRowForRow() throws Exception {
        Map<String, String> corpus = Corpus.sample(ROWS);
        Path input = writeCorpus(corpus);
        Files.writeString(input, "{\"id\": \"bad-empty\", \"text\": \"  \"}\n"
                + "{\"id\": \"bad-null\", \"text\": null}\n", java.nio.file.StandardOpenOption.APPEND);

        // the issue's statements verbatim, with filesystem tables around them
        Path issueOut = tmp.resolve("issue");
        String issueSql = IssueSql.embed(input, issueOut, ", 'max-batch-tokens' = '8192'");
        long issueStart = System.nanoTime();
        SqlRunner.execute(SqlRunner.environment(2, Map.of()), issueSql, System.out);
        long issueMillis = (System.nanoTime() - issueStart) / 1_000_000;

        Path sqlOut = tmp.resolve("sql");
        SqlEmbedding.Result result = SqlEmbedding.run(input, sqlOut, "all-minilm-l6-v2", 2,
                Map.of("max-batch-tokens", "8192"));

        RunOptions o = Jobs.options("--input", input.toString(), "--output",
                tmp.resolve("ds").toString(), "--run-id", "ds", "--parallelism", "2");
        MiniClusters.embed(o);
        Map<String, GenericRecord> reference = Outputs.embeddings(tmp.resolve("ds"));
        assertThat(reference).hasSize(ROWS);

        Map<String, JsonNode> issueRows = rows(issueOut);
        assertThat(issueRows).hasSize(ROWS + 2);
        for (String id : corpus.keySet()) {
            assertThat(cosine(vector(issueRows.get(id).get("embedding")),
                    Outputs.vector(reference.get(id)))).as(id).isGreaterThanOrEqualTo(0.9999);
        }
        assertThat(issueRows.get("bad-null").get("embedding").isNull()).isTrue();

        Map<String, JsonNode> rows = rows(sqlOut);
        assertThat(rows).hasSize(ROWS + 2);
        double worst = 1.0;
        for (String id : corpus.keySet()) {
            JsonNode row = rows.get(id);
            assertThat(row).as(id).isNotNull();
            assertThat(row.get("error").isNull()).as(id).isTrue();
            double cos = cosine(vector(row.get("embedding")), Outputs.vector(reference.get(id)));
            worst = Math.min(worst, cos);
            assertThat(cos).as(id).isGreaterThanOrEqualTo(0.9999);
        }
        assertThat(rows.get("bad-empty").get("embedding").isNull()).isTrue();
        assertThat(rows.get("bad-empty").get("error").asText()).isEqualTo("parse/empty_text");
        assertThat(rows.get("bad-null").get("error").asText()).isEqualTo("parse/missing_text");
        System.out.printf("SqlEmbeddingITCase: %d rows; issue SQL %d ms, SqlEmbedding.run %d ms;"
                + " worst cosine %.7f%n", rows.size(), issueMillis, result.wallMillis(), worst);
    }

    /** The filesystem sink's committed part files (hidden in-progress files start with '.'). */
    static Map<String, JsonNode> rows(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> out = new HashMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank()) {
                        JsonNode n = json.readTree(line);
                        assertThat(out.put(n.get("id").asText(), n)).as("duplicate id").isNull();
                    }
                }
            }
        }
        return out;
    }

    static float[] vector(JsonNode array) {
        float[] v = new float[array.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) array.get(i).asDouble();
        }
        return v;
    }

    static double cosine(float[] a, float[] b) {
        return io.github.flinkinfer.runtime.Vectors.cosine(a, b);
    }
}
