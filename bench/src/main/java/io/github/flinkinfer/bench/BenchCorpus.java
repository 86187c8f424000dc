package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The documents every contender gets: every k-th record of a JSONL corpus, in file order. */
final class BenchCorpus {
    record Doc(String id, String text) {}

    private BenchCorpus() {}

    static List<Doc> load(Path jsonl, int docs) throws IOException {
        long lines;
        try (var s = Files.lines(jsonl)) {
            lines = s.count();
        }
        long stride = Math.max(1, lines / docs);
        ObjectMapper json = new ObjectMapper();
        List<Doc> out = new ArrayList<>(docs);
        try (BufferedReader r = Files.newBufferedReader(jsonl)) {
            String line;
            long i = 0;
            while ((line = r.readLine()) != null && out.size() < docs) {
                if (i++ % stride == 0) {
                    JsonNode n = json.readTree(line);
                    out.add(new Doc(n.get("id").asText(), n.get("text").asText()));
                }
            }
        }
        return out;
    }

    static Path writeJsonl(List<Doc> docs, Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        StringBuilder sb = new StringBuilder();
        for (Doc d : docs) {
            sb.append(json.writeValueAsString(java.util.Map.of("id", d.id(), "text", d.text()))).append('\n');
        }
        Files.writeString(file, sb);
        return file;
    }
}
