package io.github.flinkinfer.runtime.files;

import io.github.flinkinfer.runtime.JvmShared;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.card.ModelStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This machine's copies of the files of cards kept in a {@link ModelStore}, so each TaskManager
 * fetches a file once however many tasks load it. An entry is named by the sha256 the card
 * gives; a copy is checked while it is written and moved into place only when it matches. Entries
 * are checked again on every load ({@link ModelFiles} verifies what it reads), so a cached file
 * changed later is refused. Directory: system property {@value #PROPERTY}, default
 * {@code <java.io.tmpdir>/flinkinfer-models-<user>}, owner-only ({@link PrivateDirectory}).
 */
public final class ModelFileCache {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ModelFileCache.class);

    /** System property naming the cache directory (e.g. set through {@code env.java.opts.taskmanager}). */
    public static final String PROPERTY = "flinkinfer.model-cache";

    /** One fetch per sha256 at a time in this JVM; the other tasks wait for it and then hit. */
    private static final ConcurrentHashMap<String, Object> FETCHING = JvmShared.slot("files.fetching",
            "one fetch per model file at a time in a JVM; the other subtasks wait and then hit the cache",
            ConcurrentHashMap::new, ConcurrentHashMap::clear);

    private final Path dir;

    private ModelFileCache(Path dir) {
        this.dir = dir;
    }

    /** The cache named by {@value #PROPERTY}, or the default under {@code java.io.tmpdir}. */
    public static ModelFileCache configured() {
        String value = System.getProperty(PROPERTY);
        Path dir = value == null || value.isBlank() ? PrivateDirectory.defaultFor("flinkinfer-models") : Path.of(value);
        return in(dir);
    }

    /** A cache in {@code dir}, created owner-only if absent; refused when others could write it. */
    public static ModelFileCache in(Path dir) {
        try {
            return new ModelFileCache(PrivateDirectory.of(dir));
        } catch (IOException e) {
            throw new ModelIntegrityException("Model file cache " + dir + " refused: " + e.getMessage(), e);
        }
    }

    /** The cache directory. */
    public Path directory() {
        return dir;
    }

    /**
     * The local copy of {@code file} (at {@code location} in {@code store}): the entry when
     * present, else fetched now. The caller verifies it as it reads it.
     */
    public Path local(ModelStore store, String location, ModelFile file) {
        Path entry = dir.resolve(file.sha256());
        if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            return entry;
        }
        synchronized (FETCHING.computeIfAbsent(file.sha256(), k -> new Object())) {
            if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                fetch(store, location, file, entry);
            }
        }
        return entry;
    }

    /** Copies to a private temporary, checks the sha256 of what arrived, then moves it into place. */
    private void fetch(ModelStore store, String location, ModelFile file, Path entry) {
        long start = System.nanoTime();
        Path written = null;
        try {
            written = Files.createTempFile(dir, ".fetching-", "");
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            try (InputStream in = store.open(location);
                    OutputStream out = new DigestOutputStream(Files.newOutputStream(written), sha)) {
                in.transferTo(out);
            }
            String actual = HexFormat.of().formatHex(sha.digest());
            if (!actual.equals(file.sha256())) {
                throw new ModelIntegrityException("Checksum mismatch for model file " + location
                        + ": expected sha256 " + file.sha256() + " but the file has " + actual
                        + ". Refusing to load a file that is not the one the model card names.");
            }
            Files.move(written, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LOG.info("Model file {} copied to {} ({} bytes, {} ms)", location, entry, Files.size(entry),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (AtomicMoveNotSupportedException e) {
            throw new ModelIntegrityException("Model file cache " + dir + " cannot move files atomically", e);
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot copy model file " + location + " into " + dir + ": " + e, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } finally {
            if (written != null) {
                try {
                    Files.deleteIfExists(written);
                } catch (IOException ignored) {
                    // a stale temporary is never read as an entry
                }
            }
        }
    }
}
