package io.github.flinkinfer.runtime.files;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.card.ModelStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Reads a card's files and checks them before anything is loaded: built-in files come from where
 * {@link BuiltInModelFiles} finds them, user files must stay inside the card's directory (no
 * absolute paths, no {@code ..}, no symlinks pointing out), the files of a card in a {@link
 * ModelStore} (and built-in files inside a jar, so a 90 MB graph is inflated once, not per run)
 * are read from this machine's {@link ModelFileCache}, and every file must match its
 * sha256 each time it is read, cache hits included.
 */
public final class ModelFiles {
    private static final String CLASSPATH = "classpath:";

    private ModelFiles() {}

    /** Reads the file fully and verifies its sha256; throws {@link ModelIntegrityException}. */
    public static byte[] readVerified(ModelCard card, ModelFile file) {
        byte[] bytes = read(card, file);
        String actual = sha256(bytes);
        if (!actual.equals(file.sha256())) {
            throw mismatch(card, describe(card, file), file, actual);
        }
        return bytes;
    }

    private static ModelIntegrityException mismatch(ModelCard card, String where, ModelFile file, String actual) {
        return new ModelIntegrityException(
                "Checksum mismatch for model '" + card.name + "' file " + where
                        + ": expected sha256 " + file.sha256() + " but the file has " + actual
                        + ". Refusing to load a file that is not the one the model card names.");
    }

    /**
     * Verifies a graph that keeps its weights in external-data files: every listed file and the
     * graph itself must be inside the card's directory and match their sha256. Returns the
     * graph's path, for ONNX Runtime to load (it resolves external data next to the graph).
     */
    public static Path verifiedGraphWithExternalData(ModelCard card, ModelFile graph) {
        if (card.baseDirectory == null || graph.path().startsWith(CLASSPATH)) {
            throw new ModelIntegrityException("Model '" + card.name
                    + "': external data needs a model card directory, not classpath files");
        }
        if (card.store != null) {
            throw new ModelIntegrityException("Model '" + card.name + "': external data files are read from a"
                    + " local card directory only, not from " + card.baseDirectory + " (mount the card's directory)");
        }
        for (ModelFile data : card.externalData) {
            verifyStreaming(card, data);
        }
        return verifyStreaming(card, graph);
    }

    /** Checks a (possibly large) file's sha256 without holding it in memory. */
    private static Path verifyStreaming(ModelCard card, ModelFile file) {
        Path path = confined(card, file);
        String actual = sha256(path);
        if (!actual.equals(file.sha256())) {
            throw mismatch(card, path.toString(), file, actual);
        }
        return path;
    }

    /** A file's sha256 (hex), read in chunks. */
    public static String sha256(Path path) {
        try {
            return Sha256.of(path);
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot read " + path + ": " + e, e);
        }
    }

    /** The file's size in bytes, without reading it (a jar entry's recorded size for a built-in file). */
    public static long size(ModelCard card, ModelFile file) {
        try {
            if (file.path().startsWith(CLASSPATH)) {
                return BuiltInModelFiles.configured().find(card.name, file.path().substring(CLASSPATH.length())).size();
            }
            return Files.size(confined(card, file));
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot read model '" + card.name + "' file " + file + ": " + e, e);
        }
    }

    static byte[] read(ModelCard card, ModelFile file) {
        if (file.path().startsWith(CLASSPATH)) {
            BuiltInModelFiles.Found found =
                    BuiltInModelFiles.configured().find(card.name, file.path().substring(CLASSPATH.length()));
            Path plain = found.plainFile();
            if (plain == null) { // a jar entry: inflated once into the file cache, a plain read after that
                plain = ModelFileCache.configured().local(location -> found.open(), found.where(), file);
            }
            try {
                return readAll(plain);
            } catch (IOException e) {
                throw new ModelIntegrityException("Cannot read " + found.where() + " (" + plain + "): " + e, e);
            }
        }
        Path path = confined(card, file);
        try {
            return readAll(path);
        } catch (IOException e) {
            throw new ModelIntegrityException(
                    "Cannot read model '" + card.name + "' file " + path + ": " + e, e);
        }
    }

    /**
     * The file's bytes, read 1 MB at a time: {@code Files.readAllBytes} reads through a temporary
     * direct buffer as large as the file, which a TaskManager's direct memory limit refuses for a
     * 90 MB graph ({@code OutOfMemoryError: Direct buffer memory}).
     */
    public static byte[] readAll(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            long size = Files.size(path);
            if (size > Integer.MAX_VALUE - 8) {
                throw new IOException(path + " is too large to load in one piece (" + size + " bytes)");
            }
            byte[] bytes = new byte[(int) size];
            int read = 0;
            int n;
            while (read < bytes.length && (n = in.read(bytes, read, Math.min(1 << 20, bytes.length - read))) > 0) {
                read += n;
            }
            if (read != bytes.length || in.read() != -1) {
                throw new IOException(path + " changed size while it was read");
            }
            return bytes;
        }
    }

    /** Resolves a card-relative path and refuses anything that leaves the card's directory. */
    static Path confined(ModelCard card, ModelFile file) {
        if (card.baseDirectory == null) {
            throw new ModelIntegrityException(
                    "Built-in model '" + card.name + "' may only use classpath: files, not " + file);
        }
        Path relative = Path.of(file.path());
        if (relative.isAbsolute() || relative.normalize().startsWith("..")
                || file.path().contains("..") || file.path().contains(":")) {
            throw new ModelIntegrityException(
                    "Model '" + card.name + "' file '" + file.path()
                            + "' must be a relative path inside the model card's directory");
        }
        if (card.store != null) {
            return ModelFileCache.configured().local(card.store, location(card, file), file);
        }
        Path base = Path.of(card.baseDirectory);
        Path resolved = base.resolve(relative).normalize();
        try {
            if (!Files.exists(resolved, LinkOption.NOFOLLOW_LINKS)) {
                throw new ModelIntegrityException(
                        "Model '" + card.name + "' file " + resolved + " does not exist");
            }
            Path real = resolved.toRealPath();
            if (!real.startsWith(base.toRealPath())) {
                throw new ModelIntegrityException(
                        "Model '" + card.name + "' file '" + file.path()
                                + "' resolves outside the model card's directory (symlink?)");
            }
            return real;
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot resolve " + resolved + ": " + e, e);
        }
    }

    static String describe(ModelCard card, ModelFile file) {
        if (file.path().startsWith(CLASSPATH)) { // a jar entry is read from its cached copy
            boolean inJar = BuiltInModelFiles.configured()
                    .find(card.name, file.path().substring(CLASSPATH.length())).plainFile() == null;
            return inJar ? file.path() + " (this machine's copy " + cachedCopy(file) + ")" : file.path();
        }
        if (card.baseDirectory == null) {
            return file.path();
        }
        if (card.store != null) {
            return location(card, file) + " (this machine's copy " + cachedCopy(file) + ")";
        }
        return Path.of(card.baseDirectory).resolve(file.path()).normalize().toString();
    }

    private static Path cachedCopy(ModelFile file) {
        return ModelFileCache.configured().directory().resolve(file.sha256());
    }

    /** Where a file of a card in a {@link ModelStore} is: its path under the card's directory. */
    static String location(ModelCard card, ModelFile file) {
        return card.baseDirectory + "/" + file.path();
    }

    /** The sha256 (hex) of {@code bytes}. */
    public static String sha256(byte[] bytes) {
        return Sha256.of(bytes);
    }
}
