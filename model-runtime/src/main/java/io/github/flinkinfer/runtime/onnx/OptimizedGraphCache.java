package io.github.flinkinfer.runtime.onnx;

import ai.onnxruntime.OrtEnvironment;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.files.PrivateDirectory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local cache of ONNX Runtime's optimized graphs, so a cold start skips graph optimization and
 * the read and sha256 of the original model: the first session of a model saves the graph ORT
 * optimized ({@code SessionOptions.setOptimizedModelFilePath}), later ones load that graph with
 * optimization off. ORT documents that a graph optimized offline may hold hardware-specific
 * rewrites and must run with the same execution provider, optimization level and hardware, so an
 * entry is keyed by the model's sha256, the ORT version, the requested device, the optimization
 * level, the session config entries, the CPU architecture and the CPU's identity (its model name
 * and feature flags: at level {@code all} ORT's NchwcTransformer lays tensors out for the vector
 * width it finds, and a hypervisor may hide AVX-512 from one VM of a model but not another, so a
 * cache on storage shared by machines never hands one CPU's graph to another; ORT's warning that
 * the graph "should only be used in the same environment" is answered by this key and kept off
 * the console, {@link OrtSessions}). Entries are written to a
 * temporary file and moved into place, after the sha256 of the written graph is recorded beside it
 * ({@code <entry>.sha256}); a hit is loaded only when the entry still has that sha256, and an entry
 * that does not is refused ({@link ModelIntegrityException}). The directory is owner-only
 * ({@link PrivateDirectory}). Directory: system property {@value #PROPERTY} ({@code off}
 * disables it), default {@code <java.io.tmpdir>/flinkinfer-ort-graphs-<user>}.
 */
public final class OptimizedGraphCache {
    private static final Logger LOG = LoggerFactory.getLogger(OptimizedGraphCache.class);

    /** System property naming the cache directory, or {@code off}. */
    public static final String PROPERTY = "flinkinfer.ort.graph-cache";

    private static final String CPU = cpuIdentity();

    private final Path dir;
    private final String cpu;

    private OptimizedGraphCache(Path dir, String cpu) {
        this.dir = dir;
        this.cpu = cpu;
    }

    /** The cache named by {@value #PROPERTY} (or the default), or null when off or unusable. */
    static OptimizedGraphCache configured() {
        String value = System.getProperty(PROPERTY);
        if ("off".equalsIgnoreCase(value)) {
            return null;
        }
        Path dir = value == null || value.isBlank()
                ? PrivateDirectory.defaultFor("flinkinfer-ort-graphs")
                : Path.of(value);
        try {
            return new OptimizedGraphCache(PrivateDirectory.of(dir), CPU);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Optimized-graph cache off: {}", e.getMessage());
            return null;
        }
    }

    /** A cache in {@code dir} (created owner-only if absent). */
    static OptimizedGraphCache in(Path dir) throws IOException {
        return in(dir, CPU);
    }

    /** A cache in {@code dir} as seen by a machine whose CPU is {@code cpu} ({@link #cpuIdentity()}). */
    static OptimizedGraphCache in(Path dir, String cpu) throws IOException {
        return new OptimizedGraphCache(PrivateDirectory.of(dir), cpu);
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
                options.sessionConfig().toString(), System.getProperty("os.arch"), cpu,
                DevicePooling.keyPart(card, options));
        String hash = ModelFiles.sha256(key.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
        return dir.resolve(card.onnx.sha256().substring(0, 16) + "-" + hash + ".onnx");
    }

    /** A usable entry: a regular file, not a link, not empty, with its recorded sha256 beside it. */
    static boolean present(Path entry) {
        try {
            return Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) && Files.size(entry) > 0
                    && Files.isRegularFile(hashOf(entry), LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Checks that the entry has the sha256 recorded when it was written; an entry changed since is
     * refused, naming the file and both hashes. ONNX Runtime then reads the file itself: creating a
     * session from the path took 0.31 s for MiniLM against 0.56 s from the same bytes in an array
     * (docs/benchmarks/prepared-sessions-2026-12-06.md). Between the check and that read only this
     * user can change the owner-only directory, and a concurrent writer of the entry replaces it
     * whole with a graph of the same key.
     */
    static void verify(Path entry) throws IOException {
        String expected;
        String actual;
        try (EntryLock lock = locked(entry)) {
            expected = Files.readString(hashOf(entry), StandardCharsets.US_ASCII).trim();
            actual = ModelFiles.sha256(entry);
        }
        if (!actual.equals(expected)) {
            throw new ModelIntegrityException("Optimized-graph cache entry " + entry + " was changed after it was"
                    + " written: expected sha256 " + expected + " but the file has " + actual
                    + ". Refusing to load it; delete it (or the cache directory) to optimize the model again.");
        }
    }

    /** Where the sha256 of an entry is recorded. */
    static Path hashOf(Path entry) {
        return entry.resolveSibling(entry.getFileName() + ".sha256");
    }

    /** A fresh private file in the cache directory for ORT to write the optimized graph to. */
    Path newTemporary() throws IOException {
        return Files.createTempFile(dir, ".writing-", ".onnx");
    }

    /** Moves a written graph into place atomically (a concurrent writer of the same entry wins or loses whole). */
    static void publish(Path written, Path entry) throws IOException {
        Path hash = Files.createTempFile(entry.getParent(), ".writing-", ".sha256");
        try (EntryLock lock = locked(entry)) {
            Files.writeString(hash, ModelFiles.sha256(written), StandardCharsets.US_ASCII);
            Files.move(hash, hashOf(entry), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Files.move(written, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.deleteIfExists(written);
            throw e;
        } finally {
            Files.deleteIfExists(hash);
        }
    }

    /**
     * Holds the entry's lock: a lock file, so a graph and its recorded sha256 are written and read
     * as a pair by the processes that share the directory (TaskManagers of one machine), and, as a
     * JVM holds a file's lock once, a wait while another thread of this JVM holds it.
     */
    private static EntryLock locked(Path entry) throws IOException {
        FileChannel channel = FileChannel.open(entry.resolveSibling(entry.getFileName() + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            while (true) {
                try {
                    return new EntryLock(channel, channel.lock());
                } catch (OverlappingFileLockException heldInThisJvm) {
                    Thread.sleep(5);
                }
            }
        } catch (InterruptedException e) {
            channel.close();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for the lock of " + entry);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** A held entry lock; closing releases it. */
    private record EntryLock(FileChannel channel, FileLock lock) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a stale temporary is harmless: never read as an entry
        }
    }

    /**
     * The CPU's model name and feature flags (Linux {@code /proc/cpuinfo}, first processor), so a
     * cache on shared storage never mixes CPUs, nor one model with different features enabled.
     */
    static String cpuIdentity() {
        String model = "";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name") && model.isEmpty()) {
                    model = line.substring(line.indexOf(':') + 1).trim();
                } else if (line.startsWith("flags") || line.startsWith("Features")) { // x86, ARM
                    return model + "\n" + line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: the architecture alone
        }
        return model;
    }
}
