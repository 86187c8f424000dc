package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of jobs form layers (docs/architecture.md, "Packages of jobs"): no package reaches
 * itself through the classes it names, directly or around a circle, and nothing names {@code cli}.
 * Read from the sources, so a Javadoc link or a fully-qualified name counts like an import.
 */
class PackageLayeringTest {
    private static final Path SOURCES =
            Corpus.locate("jobs/src/main/java/io/github/flinkinfer/jobs/package-info.java").getParent();
    private static final Pattern NAMED = Pattern.compile("io\\.github\\.flinkinfer\\.jobs\\.([a-z]\\w*)\\.(\\w+)");

    @Test
    void noPackageReachesItselfThroughTheClassesItNames() throws IOException {
        Map<String, Map<String, Set<String>>> graph = packageGraph();
        assertThat(graph).containsKeys("cli", "run", "dataflow", "report", "spec");
        for (String start : graph.keySet()) {
            assertThat(circleThrough(graph, start)).as("a circle through package " + start).isEmpty();
        }
    }

    @Test
    void nothingNamesTheCommandLine() throws IOException {
        Map<String, Set<String>> namers = new TreeMap<>();
        packageGraph().forEach((from, to) -> {
            if (to.containsKey("cli")) {
                namers.put(from, to.get("cli"));
            }
        });
        assertThat(namers).isEmpty();
    }

    /** Package → package it names → "File->Class" pairs; a package is the first folder under jobs. */
    private static Map<String, Map<String, Set<String>>> packageGraph() throws IOException {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path relative = SOURCES.relativize(file);
                if (relative.getNameCount() < 2) {
                    continue; // the module's package-info
                }
                String from = relative.getName(0).toString();
                Matcher m = NAMED.matcher(Files.readString(file));
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        graph.computeIfAbsent(from, k -> new TreeMap<>())
                                .computeIfAbsent(m.group(1), k -> new TreeSet<>())
                                .add(file.getFileName() + "->" + m.group(2));
                    }
                }
            }
        }
        return graph;
    }

    /** The edges of a shortest path from {@code start} back to itself; empty when there is none. */
    private static List<String> circleThrough(Map<String, Map<String, Set<String>>> graph, String start) {
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            String at = queue.poll();
            for (String next : graph.getOrDefault(at, Map.of()).keySet()) {
                if (next.equals(start)) {
                    List<String> edges = new ArrayList<>();
                    for (String to = start, from = at; from != null; to = from, from = cameFrom.get(from)) {
                        edges.add(0, from + " -> " + to + " " + graph.get(from).get(to));
                        if (from.equals(start)) {
                            break;
                        }
                    }
                    return edges;
                }
                if (!cameFrom.containsKey(next)) {
                    cameFrom.put(next, at);
                    queue.add(next);
                }
            }
        }
        return List.of();
    }
}
