package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The sequences langchain4j's {@code OnnxBertBiEncoder} really runs for one text, so its row in
 * the benchmark counts the tokens and FLOPs it computed, not ours: it keeps the truncation baked
 * into its {@code tokenizer.json} (128 for all-MiniLM-L6-v2), and without one it cuts the text into
 * partitions of 510 tokens, each run with [CLS] and [SEP], and averages them.
 *
 * @param truncation the tokenizer file's {@code truncation.max_length}; 0 when it has none
 */
record ReferenceWork(int truncation) {
    static final int PARTITION = 510;

    /** Reads the truncation of a {@code tokenizer.json} on the classpath (a langchain4j model jar's). */
    static ReferenceWork ofTokenizer(String resource) {
        try (InputStream in = ReferenceWork.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No " + resource + " on the classpath");
            }
            JsonNode truncation = new ObjectMapper().readTree(in).path("truncation");
            return new ReferenceWork(truncation.path("max_length").asInt(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The longest sequence it runs. */
    int maxLength() {
        return truncation > 0 ? truncation : PARTITION + 2;
    }

    /** Lengths of the sequences run for a text of {@code tokens} tokens (2 special ones included, untruncated). */
    List<Integer> sequences(int tokens) {
        if (truncation > 0) {
            return List.of(Math.min(tokens, truncation));
        }
        List<Integer> out = new ArrayList<>();
        for (int content = tokens - 2; content > 0; content -= PARTITION) {
            out.add(Math.min(content, PARTITION) + 2);
        }
        return out.isEmpty() ? List.of(tokens) : out;
    }
}
