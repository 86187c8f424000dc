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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packages of each module form layers (docs/architecture.md, "Packages"): no package reaches
 * itself through the classes it names, directly or around a circle; no module's root package holds
 * more than {@value #MAX_ROOT_CLASSES} classes; and in jobs nothing names {@code cli}. Read from the
 * sources, so a Javadoc link or a fully-qualified name counts like an import.
 */
class PackageLayeringTest {
    /** A root package past this is a drawer, not a stage: split it by stage (docs/STYLE.md). */
    private static final int MAX_ROOT_CLASSES = 15;

    @ParameterizedTest
    @ValueSource(strings = {"jobs", "operators", "model-runtime", "bench"})
    void noPackageReachesItselfThroughTheClassesItNames(String module) throws IOException {
        Map<String, Map<String, Set<String>>> graph = packageGraph(module);
        assertThat(graph).as("packages of " + module).isNotEmpty();
        for (String start : graph.keySet()) {
            assertThat(circleThrough(graph, start)).as("a circle through package " + start).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jobs", "operators", "model-runtime", "bench"})
    void rootPackageStaysSmall(String module) throws IOException {
        try (Stream<Path> files = Files.list(sources(module))) {
            List<String> classes = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".java") && !n.equals("package-info.java"))
                    .toList();
            assertThat(classes).as("classes in the root package of " + module).hasSizeLessThanOrEqualTo(MAX_ROOT_CLASSES);
        }
    }

    @Test
    void stagesAreWhereTheDocsSayTheyAre() throws IOException {
        assertThat(packageGraph("jobs")).containsKeys("cli", "run", "dataflow", "report", "spec");
        assertThat(packageGraph("operators")).containsKeys("", "tokenize", "run", "dedupe", "ledger", "sql");
        assertThat(packageGraph("model-runtime")).containsKeys("", "card", "files", "tokenize", "onnx");
    }

    @Test
    void nothingNamesTheCommandLine() throws IOException {
        Map<String, Set<String>> namers = new TreeMap<>();
        packageGraph("jobs").forEach((from, to) -> {
            if (to.containsKey("cli")) {
                namers.put(from, to.get("cli"));
            }
        });
        assertThat(namers).isEmpty();
    }

    /** The folder of a module's root package (the one holding its package-info). */
    private static Path sources(String module) {
        String base = switch (module) {
            case "model-runtime" -> "runtime";
            default -> module;
        };
        return Corpus.locate(module + "/src/main/java/io/github/flinkinfer/" + base + "/package-info.java").getParent();
    }

    /**
     * Package → package it names → "File->Class" pairs, packages by their name under the module's
     * root package ("" for the root itself, "sql.format" for a nested one).
     */
    private static Map<String, Map<String, Set<String>>> packageGraph(String module) throws IOException {
        Path root = sources(module);
        String base = root.getFileName().toString();
        Pattern named = Pattern.compile("io\\.github\\.flinkinfer\\." + base + "((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Path folder = root.relativize(file).getParent();
                String from = folder == null ? "" : folder.toString().replace(file.getFileSystem().getSeparator(), ".");
                graph.computeIfAbsent(from, k -> new TreeMap<>());
                Matcher m = named.matcher(Files.readString(file));
                while (m.find()) {
                    String to = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
                    if (!to.equals(from)) {
                        graph.get(from).computeIfAbsent(to, k -> new TreeSet<>()).add(file.getFileName() + "->" + m.group(2));
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
