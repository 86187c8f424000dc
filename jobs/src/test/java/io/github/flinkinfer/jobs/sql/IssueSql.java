package io.github.flinkinfer.jobs.sql;

import java.nio.file.Path;

/** The issue's SQL shape, shared by the ITCases that run it: a JSON table straight into ML_PREDICT. */
final class IssueSql {
    private IssueSql() {}

    /**
     * {@code CREATE TABLE docs} over the JSON input, {@code CREATE TABLE out} as JSON, {@code CREATE
     * MODEL minilm} with {@code 'provider' = 'onnx'} and these extra model options (e.g. {@code ,
     * 'max-batch-tokens' = '8192'}), then {@code INSERT INTO out ... ML_PREDICT}: no shuffle.
     */
    static String embed(Path input, Path output, String extraModelOptions) {
        return String.join("\n",
                "CREATE TABLE docs (id STRING, text STRING) WITH ('connector' = 'filesystem',",
                "  'path' = '" + input.toAbsolutePath() + "', 'format' = 'json');",
                "CREATE TABLE `out` (id STRING, embedding ARRAY<FLOAT>) WITH ('connector' = 'filesystem',",
                "  'path' = '" + output.toAbsolutePath() + "', 'format' = 'json');",
                "CREATE MODEL minilm INPUT (text STRING) OUTPUT (embedding ARRAY<FLOAT>)",
                "WITH ('provider' = 'onnx', 'model' = 'all-minilm-l6-v2'" + extraModelOptions + ");",
                "INSERT INTO `out` SELECT id, embedding FROM ML_PREDICT(TABLE docs, MODEL minilm, DESCRIPTOR(text));");
    }
}
