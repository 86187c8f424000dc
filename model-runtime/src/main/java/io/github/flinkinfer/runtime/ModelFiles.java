package io.github.flinkinfer.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads a card's files and checks them before anything is loaded: built-in files come from the
 * classpath, user files must stay inside the card's directory (no absolute paths, no {@code ..},
 * no symlinks pointing out), and every file must match its sha256.
 */
public final class ModelFiles {
    private static final String CLASSPATH = "classpath:";

    private ModelFiles() {}

    /** Reads the file fully and verifies its sha256; throws {@link ModelIntegrityException}. */
    public static byte[] readVerified(ModelCard card, ModelFile file) {
        byte[] bytes = read(card, file);
        String actual = sha256(bytes);
        if (!actual.equals(file.sha256())) {
            throw new ModelIntegrityException(
                    "Checksum mismatch for model '" + card.name + "' file " + describe(card, file)
                            + ": expected sha256 " + file.sha256() + " but the file has " + actual
                            + ". Refusing to load a file that is not the one the model card names.");
        }
        return bytes;
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
            throw new ModelIntegrityException(
                    "Checksum mismatch for model '" + card.name + "' file " + path
                            + ": expected sha256 " + file.sha256() + " but the file has " + actual
                            + ". Refusing to load a file that is not the one the model card names.");
        }
        return path;
    }

    /** A file's sha256 (hex), read in chunks. */
    public static String sha256(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                sha.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new ModelIntegrityException("Cannot read " + path + ": " + e, e);
        }
    }

    /** The file's size in bytes, without reading it (a jar entry's recorded size on the classpath). */
    public static long size(ModelCard card, ModelFile file) {
        if (file.path().startsWith(CLASSPATH)) {
            java.net.URL url = ModelFiles.class.getClassLoader()
                    .getResource(file.path().substring(CLASSPATH.length()));
            if (url == null) {
                throw new ModelIntegrityException("Model '" + card.name + "' file " + file.path()
                        + " is not on the classpath (is the model artifact a dependency?)");
            }
            try {
                java.net.URLConnection connection = url.openConnection();
                connection.setUseCaches(false);
                return connection.getContentLengthLong();
            } catch (IOException e) {
                throw new ModelIntegrityException("Cannot read " + file.path(), e);
            }
        }
        try {
            return Files.size(confined(card, file));
        } catch (IOException e) {
            throw new ModelIntegrityException("Cannot read model '" + card.name + "' file " + file + ": " + e, e);
        }
    }

    static byte[] read(ModelCard card, ModelFile file) {
        if (file.path().startsWith(CLASSPATH)) {
            String resource = file.path().substring(CLASSPATH.length());
            try (InputStream in = ModelFiles.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new ModelIntegrityException(
                            "Model '" + card.name + "' file " + file.path()
                                    + " is not on the classpath (is the model artifact a dependency?)");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new ModelIntegrityException("Cannot read " + file.path(), e);
            }
        }
        Path path = confined(card, file);
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ModelIntegrityException(
                    "Cannot read model '" + card.name + "' file " + path + ": " + e, e);
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
                || file.path().contains("..")) {
            throw new ModelIntegrityException(
                    "Model '" + card.name + "' file '" + file.path()
                            + "' must be a relative path inside the model card's directory");
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
        return card.baseDirectory == null
                ? file.path()
                : Path.of(card.baseDirectory).resolve(file.path()).normalize().toString();
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
