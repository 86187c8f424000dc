package io.github.flinkinfer.jobs.sql;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One SQL embedding run over a JSONL file ({@code id}, {@code text}) into a directory of JSONL
 * part files ({@code id}, {@code embedding}, {@code error}): the SQL front door as a library
 * call, for the benchmark and tests. Returns when the job has finished.
 *
 * <pre>{@code
 * SqlEmbedding.Result r = SqlEmbedding.run(Path.of("corpus.jsonl"), Path.of("out"),
 *         "all-minilm-l6-v2", 2, Map.of("max-batch-tokens", "8192"));
 * }</pre>
 */
public final class SqlEmbedding {
    private SqlEmbedding() {}

    /** What ran and how long it took (planning, model load and the job, end to end). */
    public record Result(String script, long wallMillis) {}

    /**
     * @param model built-in model name or model card path
     * @param parallelism ML_PREDICT subtasks (0 = the cluster default)
     * @param modelOptions extra {@code onnx} provider options (e.g. {@code max-batch-size})
     */
    public static Result run(Path input, Path output, String model, int parallelism,
            Map<String, String> modelOptions) throws Exception {
        String script = script(input, output, model, modelOptions);
        long start = System.nanoTime();
        SqlRunner.execute(SqlRunner.environment(parallelism, Map.of()), script,
                new PrintStream(OutputStream.nullOutputStream()));
        return new Result(script, (System.nanoTime() - start) / 1_000_000);
    }

    /** The script {@link #run} executes (also the example in docs/sql.md). */
    public static String script(Path input, Path output, String model,
            Map<String, String> modelOptions) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("provider", "onnx");
        options.put("model", model);
        options.putAll(modelOptions);
        StringBuilder with = new StringBuilder();
        options.forEach((k, v) -> with.append(with.length() == 0 ? "" : ", ")
                .append(quote(k)).append(" = ").append(quote(v)));
        return String.join("\n",
                "CREATE TABLE docs (id STRING, text STRING) WITH (",
                "  'connector' = 'filesystem', 'path' = " + quote(input.toAbsolutePath()) + ",",
                "  'format' = 'json');",
                "CREATE TABLE embeddings (id STRING, embedding ARRAY<FLOAT>, error STRING) WITH (",
                "  'connector' = 'filesystem', 'path' = " + quote(output.toAbsolutePath()) + ",",
                "  'format' = 'json');",
                "-- one row per id; the GROUP BY also spreads rows over all ML_PREDICT subtasks",
                "-- (a single JSON file is one split, and ML_PREDICT runs at its input's parallelism)",
                "CREATE TEMPORARY VIEW unique_docs AS",
                "  SELECT id, FIRST_VALUE(text) AS text FROM docs GROUP BY id;",
                "CREATE MODEL embedder INPUT (text STRING) OUTPUT (embedding ARRAY<FLOAT>, error STRING)",
                "  WITH (" + with + ");",
                "INSERT INTO embeddings",
                "  SELECT id, embedding, error",
                "  FROM ML_PREDICT(TABLE unique_docs, MODEL embedder, DESCRIPTOR(text));",
                "");
    }

    private static String quote(Object value) {
        return "'" + value.toString().replace("'", "''") + "'";
    }
}
