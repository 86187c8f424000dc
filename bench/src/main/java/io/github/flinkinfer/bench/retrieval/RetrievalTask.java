package io.github.flinkinfer.bench.retrieval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A labelled retrieval task as datasets/build-retrieval-task.sh writes it: {@code queries.jsonl}
 * and {@code corpus.jsonl} (the job's input), {@code qrels.tsv} (BEIR layout) and {@code task.json}.
 */
public record RetrievalTask(Path dir, Map<String, Set<String>> qrels) {

    public Path queries() {
        return dir.resolve("queries.jsonl");
    }

    public Path corpus() {
        return dir.resolve("corpus.jsonl");
    }

    public Path description() {
        return dir.resolve("task.json");
    }

    /** Reads the qrels; every query id with a relevant document is a query of the task. */
    public static RetrievalTask load(Path dir) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("qrels.tsv"));
        Map<String, Set<String>> qrels = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            if (f.length == 3 && Integer.parseInt(f[2]) > 0) {
                qrels.computeIfAbsent(f[0], q -> new TreeSet<>()).add(f[1]);
            }
        }
        if (qrels.isEmpty()) {
            throw new IllegalArgumentException("no relevance judgements in " + dir.resolve("qrels.tsv"));
        }
        return new RetrievalTask(dir, qrels);
    }
}
