package io.github.flinkinfer.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Real texts from the bundled WordNet sample. */
public final class SampleTexts {
    public static final Path SAMPLE = locate("datasets/sample/wordnet-sample.jsonl");

    private SampleTexts() {}

    public static Path locate(String relative) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path p = dir.resolve(relative);
            if (Files.exists(p)) {
                return p;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("Cannot find " + relative + " above the working dir");
    }

    /** The first {@code n} texts of the sample. */
    public static List<String> texts(int n) {
        ObjectMapper json = new ObjectMapper();
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(SAMPLE)) {
                if (out.size() == n) {
                    break;
                }
                JsonNode node = json.readTree(line);
                out.add(node.get("text").asText());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
