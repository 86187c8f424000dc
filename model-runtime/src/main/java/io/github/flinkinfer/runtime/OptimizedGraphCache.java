package io.github.flinkinfer.runtime;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local cache of ONNX Runtime's optimized graphs, so a cold start skips graph optimization and
 * the read and sha256 of the original model: the first session of a model saves the graph ORT
 * optimized ({@code SessionOptions.setOptimizedModelFilePath}), later ones load that graph with
 * optimization off. ORT documents that a graph optimized offline may hold hardware-specific
 * rewrites and must run with the same execution provider, optimization level and hardware, so an
 * entry is keyed by the model's sha256, the ORT version, the requested device, the optimization
 * level, the session config entries, the CPU architecture and model. Entries are written to a
 * temporary file and moved into place; the directory is created owner-only and refused when it is
 * a symlink or writable by others. Directory: system property {@value #PROPERTY} ({@code off}
 * disables it), default {@code <java.io.tmpdir>/flinkinfer-ort-graphs-<user>}.
 */
public final class OptimizedGraphCache {
    private static final Logger LOG = LoggerFactory.getLogger(OptimizedGraphCache.class);

    /** System property naming the cache directory, or {@code off}. */
    public static final String PROPERTY = "flinkinfer.ort.graph-cache";

    private static final String CPU_MODEL = cpuModel();

    private final Path dir;

    private OptimizedGraphCache(Path dir) {
        this.dir = dir;
    }

    /** The cache named by {@value #PROPERTY} (or the default), or null when off or unusable. */
    static OptimizedGraphCache configured() {
        String value = System.getProperty(PROPERTY);
        if ("off".equalsIgnoreCase(value)) {
            return null;
        }
        Path dir = value == null || value.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"),
                        "flinkinfer-ort-graphs-" + System.getProperty("user.name", "user"))
                : Path.of(value);
        try {
            return new OptimizedGraphCache(privateDirectory(dir));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Optimized-graph cache off: {}", e.getMessage());
            return null;
        }
    }

    /** A cache in {@code dir} (created owner-only if absent). */
    static OptimizedGraphCache in(Path dir) throws IOException {
        return new OptimizedGraphCache(privateDirectory(dir));
    }

    /** Whether a card and options can use the cache (one self-contained graph, optimized). */
    static boolean applies(ModelCard card, RuntimeOptions options) {
        return card.externalData.isEmpty()
                && !"none".equalsIgnoreCase(options.optimizationLevel())
                && options.profilePrefix() == null;
    }

    /** Where the optimized graph of this model under these options lives (present or not). */
    Path entry(ModelCard card, RuntimeOptions options) {
        String key = String.join("\n", card.onnx.sha256(), OrtEnvironment.getEnvironment().getVersion(),
                options.device().toString(), options.optimizationLevel().toLowerCase(Locale.ROOT),
                options.sessionConfig().toString(), System.getProperty("os.arch"), CPU_MODEL);
        String hash = ModelFiles.sha256(key.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
        return dir.resolve(card.onnx.sha256().substring(0, 16) + "-" + hash + ".onnx");
    }

    /** A usable entry: a regular file, not a link, not empty. */
    static boolean present(Path entry) {
        try {
            return Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) && Files.size(entry) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** A fresh private file in the cache directory for ORT to write the optimized graph to. */
    Path newTemporary() throws IOException {
        return Files.createTempFile(dir, ".writing-", ".onnx");
    }

    /** Moves a written graph into place atomically (a concurrent writer of the same entry wins or loses whole). */
    static void publish(Path written, Path entry) throws IOException {
        try {
            Files.move(written, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(written);
            throw e;
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a stale temporary is harmless: never read as an entry
        }
    }

    private static Path privateDirectory(Path dir) throws IOException {
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (posix) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a plain directory");
        }
        if (posix) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)
                    || !owner.equals(System.getProperty("user.name"))) {
                throw new IOException(dir + " must be owned by " + System.getProperty("user.name")
                        + " and writable by its owner only (owner " + owner + ", "
                        + PosixFilePermissions.toString(perms) + ")");
            }
        }
        return dir;
    }

    /** The CPU's model name (Linux), so a cache on shared storage never mixes CPUs. */
    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: the architecture alone
        }
        return "";
    }
}
