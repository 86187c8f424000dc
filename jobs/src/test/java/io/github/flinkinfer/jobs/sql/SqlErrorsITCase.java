package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.operators.sql.PredictRecorder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The SQL front door keeps the errors contract (issue 14): a JSON Lines table read with {@code
 * 'format' = 'json-with-errors'} through {@code sql --file} gives each good line's embedding
 * once, and each bad line (malformed JSON, invalid UTF-8) one error row with its reason and
 * {@code file:line}; the job succeeds and leaves no {@code .staging_*} directory. The script is
 * the one in docs/sql.md.
 */
class SqlErrorsITCase extends ClusterTestBase {
    private static final List<String> GOOD = List.of("d1", "d2", "d3", "d4", "d5");

    @Test
    void everyLineEndsInTheEmbeddingsOrTheErrorsTable() throws Exception {
        Path input = Files.createDirectories(tmp.resolve("in")).resolve("docs.jsonl");
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        lines.writeBytes(good("d1", "The cat sat on the mat."));
        lines.writeBytes(good("d2", "Flink runs batch jobs."));
        int broken = lines.size();
        lines.writeBytes(utf8("{\"doc_id\": \"d-broken\", \"body\": \"no closing brace\"\n"));
        lines.writeBytes(good("d3", "Naïve café, ünïcödé text."));
        int latin1 = lines.size();
        lines.writeBytes("{\"doc_id\": \"d-latin1\", \"body\": \"caf\u00e9\"}\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        lines.writeBytes(good("d4", "ONNX Runtime on the CPU."));
        lines.writeBytes(good("d5", "Five good lines in all."));
        int empty = lines.size();
        lines.writeBytes(good("d-empty", "   "));
        Files.write(input, lines.toByteArray());

        Path out = tmp.resolve("out");
        Path script = tmp.resolve("errors.sql");
        Files.writeString(script, String.join("\n",
                "CREATE TABLE docs (doc_id STRING, body STRING, error STRING, source STRING) WITH (",
                "  'connector' = 'filesystem', 'path' = '" + input.getParent() + "',",
                "  'format' = 'json-with-errors');",
                "CREATE TABLE embeddings (doc_id STRING, embedding ARRAY<FLOAT>) WITH (",
                "  'connector' = 'filesystem', 'path' = '" + out.resolve("embeddings") + "',",
                "  'format' = 'json');",
                "CREATE TABLE errors (source STRING, doc_id STRING, error STRING) WITH (",
                "  'connector' = 'filesystem', 'path' = '" + out.resolve("errors") + "',",
                "  'format' = 'json');",
                "CREATE MODEL minilm INPUT (body STRING) OUTPUT (embedding ARRAY<FLOAT>, error STRING)",
                "  WITH ('provider' = 'onnx', 'model' = 'all-minilm-l6-v2');",
                "CREATE TEMPORARY VIEW readable AS",
                "  SELECT doc_id, body, source FROM docs WHERE error IS NULL;",
                "CREATE TEMPORARY VIEW predicted AS",
                "  SELECT doc_id, source, embedding, error",
                "  FROM ML_PREDICT(TABLE readable, MODEL minilm, DESCRIPTOR(body));",
                "EXECUTE STATEMENT SET BEGIN",
                "  INSERT INTO embeddings SELECT doc_id, embedding FROM predicted WHERE error IS NULL;",
                "  INSERT INTO errors",
                "    SELECT source, doc_id, error FROM docs WHERE error IS NOT NULL",
                "    UNION ALL",
                "    SELECT source, doc_id, error FROM predicted WHERE error IS NOT NULL;",
                "END;"));

        PredictRecorder.start();
        int exit = new CommandLine(new SqlCommand())
                .execute("--file", script.toString(), "--parallelism", "2");
        PredictRecorder.Recording predicted = PredictRecorder.stop();
        assertThat(exit).as("sql exit code").isZero();
        // the two INSERTs share one ML_PREDICT: the model ran on each good line once
        assertThat(predicted.rowsBySubtask().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(GOOD.size());

        Map<String, JsonNode> embeddings = byKey(rows(out.resolve("embeddings")), "doc_id");
        assertThat(embeddings).containsOnlyKeys(GOOD);
        for (String id : GOOD) {
            JsonNode v = embeddings.get(id).get("embedding");
            assertThat(v.size()).as(id).isEqualTo(384);
            double norm = 0;
            for (JsonNode x : v) {
                norm += x.asDouble() * x.asDouble();
            }
            assertThat(Math.sqrt(norm)).as(id + " |embedding|").isCloseTo(1.0, within(1e-4));
        }

        Map<String, JsonNode> errors = new java.util.HashMap<>(); // by file name and byte offset
        for (JsonNode e : rows(out.resolve("errors"))) {
            String source = e.get("source").asText();
            assertThat(source).as("the whole path").contains(tmp.toString());
            errors.put(source.substring(source.lastIndexOf('/') + 1), e);
        }
        assertThat(errors).containsOnlyKeys("docs.jsonl@" + broken, "docs.jsonl@" + latin1, "docs.jsonl@" + empty);
        assertError(errors.get("docs.jsonl@" + broken), null, "parse/malformed_json");
        assertError(errors.get("docs.jsonl@" + latin1), null, "parse/invalid_utf8");
        assertError(errors.get("docs.jsonl@" + empty), "d-empty", "parse/empty_text");

        try (Stream<Path> all = Files.walk(out)) {
            assertThat(all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".")))
                    .as("staging or in-progress files left behind").isEmpty();
        }
    }

    private static void assertError(JsonNode row, String id, String error) {
        assertThat(row.get("doc_id").isNull() ? null : row.get("doc_id").asText()).isEqualTo(id);
        assertThat(row.get("error").asText()).isEqualTo(error);
    }

    private static byte[] good(String id, String body) {
        return utf8("{\"doc_id\": \"" + id + "\", \"body\": \"" + body + "\"}\n");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every row of the committed part files (hidden files are in-progress or staging). */
    private static List<JsonNode> rows(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith(".")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank()) {
                        out.add(json.readTree(line));
                    }
                }
            }
        }
        return out;
    }

    /** Rows by a key column; a key seen twice fails the test (each line ends in one place once). */
    private static Map<String, JsonNode> byKey(List<JsonNode> rows, String key) {
        Map<String, JsonNode> out = new HashMap<>();
        for (JsonNode row : rows) {
            assertThat(out.put(row.get(key).asText(), row)).as("duplicate " + key).isNull();
        }
        return out;
    }
}
