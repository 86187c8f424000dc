package io.github.flinkinfer.jobs.spec;

import java.util.Locale;

/** Corpus file formats the jobs read. */
public enum InputFormat {
    /** One JSON object per line with id and text fields. */
    JSONL,
    /** A header naming the columns, then one record each; quoted fields may hold newlines. */
    CSV,
    /** One document per line; the id is {@code file:line}. */
    TEXT,
    /** Parquet files with string id and text columns. */
    PARQUET;

    /** Picks the format from a file name's extension. */
    public static InputFormat fromFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".jsonl") || n.endsWith(".ndjson") || n.endsWith(".json")) {
            return JSONL;
        }
        if (n.endsWith(".csv")) {
            return CSV;
        }
        if (n.endsWith(".parquet")) {
            return PARQUET;
        }
        if (n.endsWith(".txt") || n.endsWith(".text")) {
            return TEXT;
        }
        throw new IllegalArgumentException(
                "Cannot tell the format of '" + name + "' from its extension; pass --format");
    }
}
