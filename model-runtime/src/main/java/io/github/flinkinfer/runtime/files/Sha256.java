package io.github.flinkinfer.runtime.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The sha256 every model file is checked against, fast from a JVM's first model on. The JDK's
 * SHA-256 runs on the CPU's SHA instructions only in C2-compiled code; a JVM that hashes a 90 MB
 * graph in its first seconds, while C2 is busy with the start-up's own methods, hashes it in
 * interpreted and C1 code at about a tenth of that speed (0.8-1 s on this project's 2-core
 * machine instead of 0.07 s). {@link #warmUp()} makes the compiler see the digest as hot long
 * before: twenty thousand one-block updates (about 1 MB, well under 0.1 s), once per JVM, on a
 * daemon thread. The CLI starts it first thing; the hash of a large file or array waits for it
 * (starting it if nobody has), so a TaskManager's first model load gets the compiled digest too.
 */
public final class Sha256 {
    private static final int WARM_UP_BLOCKS = 20_000;
    private static final int LARGE = 8 << 20;
    private static volatile Thread warmUp;

    private Sha256() {}

    /** Starts the one warm-up of this JVM, if none has started; returns at once. */
    public static void warmUp() {
        if (warmUp != null) {
            return;
        }
        synchronized (Sha256.class) {
            if (warmUp == null) {
                Thread t = new Thread(Sha256::hashBlocks, "sha256-warm-up");
                t.setDaemon(true);
                t.setPriority(Thread.MIN_PRIORITY);
                t.start();
                warmUp = t;
            }
        }
    }

    private static void hashBlocks() {
        MessageDigest sha = digest();
        byte[] block = new byte[64];
        for (int i = 0; i < WARM_UP_BLOCKS; i++) {
            sha.update(block);
        }
        sha.digest();
    }

    /**
     * The sha256 of {@code bytes}, in lower-case hex; a large array (a graph) waits for this
     * JVM's warm-up first, starting it if nobody has.
     */
    public static String of(byte[] bytes) {
        if (bytes.length >= LARGE) {
            warmedUp();
        }
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static void warmedUp() {
        warmUp();
        try {
            warmUp.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The sha256 of the file at {@code path}, read in chunks, in lower-case hex. */
    public static String of(Path path) throws IOException {
        if (Files.size(path) >= LARGE) {
            warmedUp();
        }
        try (InputStream in = Files.newInputStream(path)) {
            MessageDigest sha = digest();
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                sha.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
