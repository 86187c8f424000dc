package io.github.flinkinfer.jobs.testutils;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The bundled WordNet sample, located from any module directory. */
public final class Corpus {
    public static final Path SAMPLE = locate("datasets/sample/wordnet-sample.jsonl");

    private Corpus() {}

    public static Path locate(String relative) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.exists(dir.resolve(relative))) {
                return dir.resolve(relative);
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("Cannot find " + relative);
    }

    /** id → text of the first {@code n} records. */
    public static Map<String, String> sample(int n) {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(SAMPLE)) {
                if (out.size() == n) {
                    break;
                }
                JsonNode node = json.readTree(line);
                out.put(node.get("id").asText(), node.get("text").asText());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Writes the records as JSONL and returns the file. */
    public static Path writeJsonl(Path file, Map<String, String> records) {
        ObjectMapper json = new ObjectMapper();
        StringBuilder sb = new StringBuilder();
        records.forEach((id, text) -> {
            try {
                sb.append(json.writeValueAsString(Map.of("id", id, "text", text))).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            Files.writeString(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
