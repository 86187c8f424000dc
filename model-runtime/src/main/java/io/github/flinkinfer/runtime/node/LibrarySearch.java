package io.github.flinkinfer.runtime.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the dynamic loader finds a library that a library it loads needs (one without RPATH or
 * RUNPATH, as ONNX Runtime's CUDA provider): the directories of {@code LD_LIBRARY_PATH}, then its
 * cache ({@code /etc/ld.so.cache}, as {@code ldconfig -p} prints it), then the standard
 * directories.
 *
 * <pre>{@code
 * LibrarySearch search = LibrarySearch.ofThisNode();
 * search.find("libcudart.so.12");           // Optional[Found[path=/usr/local/cuda/lib64/..., where=LD_LIBRARY_PATH]]
 * search.majorVersions("libcudart.so.");    // [13]: the CUDA runtimes this node has
 * }</pre>
 *
 * @param libraryPath the directories of {@code LD_LIBRARY_PATH}, in order
 * @param cache the loader cache: soname to path, for this machine's architecture
 * @param standardDirs the loader's default directories
 */
public record LibrarySearch(List<Path> libraryPath, Map<String, Path> cache, List<Path> standardDirs) {
    /** The loader's default directories (trusted directories on 64-bit glibc). */
    public static final List<Path> STANDARD_DIRS =
            List.of(Path.of("/lib64"), Path.of("/usr/lib64"), Path.of("/lib"), Path.of("/usr/lib"));

    private static final Pattern CACHE_LINE = Pattern.compile("^\\s+(\\S+) \\(([^)]*)\\) => (\\S+)$");

    /** Where a library was found, and by which step of the search. */
    public record Found(Path path, String where) {}

    public LibrarySearch {
        libraryPath = List.copyOf(libraryPath);
        cache = Map.copyOf(cache);
        standardDirs = List.copyOf(standardDirs);
    }

    /** Only {@code dirs}, searched in order (a directory of libraries, or a test's fake one). */
    public static LibrarySearch inDirectories(List<Path> dirs) {
        return new LibrarySearch(dirs, Map.of(), List.of());
    }

    /** This process's search: its {@code LD_LIBRARY_PATH}, {@code ldconfig -p}, the standard directories. */
    public static LibrarySearch ofThisNode() {
        List<Path> path = new ArrayList<>();
        String env = System.getenv("LD_LIBRARY_PATH");
        if (env != null) {
            for (String dir : env.split(":")) {
                if (!dir.isBlank()) {
                    path.add(Path.of(dir));
                }
            }
        }
        return new LibrarySearch(path, loaderCache(), STANDARD_DIRS);
    }

    /** The first place the loader would take {@code soname} from; empty: it would fail. */
    public Optional<Found> find(String soname) {
        for (Path dir : libraryPath) {
            if (Files.exists(dir.resolve(soname))) {
                return Optional.of(new Found(dir.resolve(soname), "LD_LIBRARY_PATH"));
            }
        }
        Path cached = cache.get(soname);
        if (cached != null) {
            return Optional.of(new Found(cached, "ld.so.cache"));
        }
        for (Path dir : standardDirs) {
            if (Files.exists(dir.resolve(soname))) {
                return Optional.of(new Found(dir.resolve(soname), "standard directory"));
            }
        }
        return Optional.empty();
    }

    /**
     * The major versions of the libraries named {@code prefix}{@code N} anywhere in the search
     * ({@code libcudart.so.} → the CUDA runtimes the node has), ascending.
     */
    public TreeSet<Integer> majorVersions(String prefix) {
        Pattern versioned = Pattern.compile(Pattern.quote(prefix) + "(\\d+)");
        TreeSet<Integer> majors = new TreeSet<>();
        List<String> names = new ArrayList<>(cache.keySet());
        for (Path dir : concat(libraryPath, standardDirs)) {
            try (Stream<Path> files = Files.list(dir)) {
                files.forEach(f -> names.add(f.getFileName().toString()));
            } catch (IOException | RuntimeException e) {
                // a directory that is not there or not readable holds nothing for the loader either
            }
        }
        for (String name : names) {
            Matcher m = versioned.matcher(name);
            if (m.matches()) {
                majors.add(Integer.parseInt(m.group(1)));
            }
        }
        return majors;
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** {@code ldconfig -p}'s entries for this JVM's architecture; empty when there is no ldconfig. */
    static Map<String, Path> loaderCache() {
        for (String ldconfig : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig", "/bin/ldconfig", "/usr/bin/ldconfig")) {
            if (Files.isExecutable(Path.of(ldconfig))) {
                return parseCache(run(ldconfig, "-p"), System.getProperty("os.arch", ""));
            }
        }
        return Map.of();
    }

    /**
     * The entries of {@code ldconfig -p}'s output for {@code osArch} (amd64: {@code x86-64},
     * aarch64: {@code AArch64}; the first entry of a soname wins, as in the loader).
     */
    static Map<String, Path> parseCache(String ldconfigOutput, String osArch) {
        String arch = switch (osArch) {
            case "amd64", "x86_64" -> "x86-64";
            case "aarch64" -> "AArch64";
            default -> "";
        };
        Map<String, Path> entries = new LinkedHashMap<>();
        for (String line : ldconfigOutput.split("\n")) {
            Matcher m = CACHE_LINE.matcher(line);
            if (m.matches() && m.group(2).contains(arch)) {
                entries.putIfAbsent(m.group(1), Path.of(m.group(3)));
            }
        }
        return entries;
    }

    /** A command's standard output (empty when it cannot run or takes over 10 s: a hung driver). */
    static String run(String... command) {
        Path out = null;
        try {
            out = Files.createTempFile("flinkinfer-node", ".out");
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        } finally {
            if (out != null) {
                out.toFile().delete();
            }
        }
    }
}
