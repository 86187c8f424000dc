package io.github.flinkinfer.runtime.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * ONNX Runtime's native libraries from a directory the node provides (a CUDA 13 or TensorRT
 * build, or the jar's own natives unpacked) instead of the ones in the jar: ORT's Java loader
 * reads the directory from the system property {@value #PROPERTY} when it first loads, once per
 * JVM. {@link #use} sets it in the JVM that is about to load ORT (the driver of an embedded run, a
 * TaskManager), or refuses when ORT was already loaded there from elsewhere.
 *
 * <pre>{@code
 * OrtNatives.use("/opt/onnxruntime-cuda13/lib"); // before the first ORT class is used
 * }</pre>
 */
public final class OrtNatives {
    /** ORT's own property (ai.onnxruntime.OnnxRuntime.ONNXRUNTIME_NATIVE_PATH). */
    public static final String PROPERTY = "onnxruntime.native.path";

    /** What ORT's loader loads from the directory, whatever the provider. */
    static final List<String> REQUIRED = List.of("libonnxruntime.so", "libonnxruntime4j_jni.so");

    private OrtNatives() {}

    /** The required libraries {@code dir} lacks; empty when it has them all. */
    public static List<String> missingIn(Path dir) {
        List<String> missing = new ArrayList<>();
        for (String name : REQUIRED) {
            if (!Files.isRegularFile(dir.resolve(name))) {
                missing.add(name);
            }
        }
        return missing;
    }

    /**
     * Makes this JVM load ORT from {@code dir} ({@code null}: nothing to do, the jar's natives or a
     * {@code -D}{@value #PROPERTY} given to the JVM apply). Throws {@link IllegalStateException}
     * naming the fix when the directory lacks ORT's libraries, when the JVM was given another
     * directory, or when ORT is already loaded in this JVM from elsewhere.
     */
    public static synchronized void use(String dir) {
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path path = Path.of(dir).toAbsolutePath().normalize();
        List<String> missing = missingIn(path);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("--ort-native-dir " + path + " lacks " + String.join(", ", missing)
                    + ": point it at the lib directory of an ONNX Runtime build (or run flink-inference doctor)");
        }
        String set = System.getProperty(PROPERTY);
        if (set != null && !Path.of(set).toAbsolutePath().normalize().equals(path)) {
            throw new IllegalStateException("--ort-native-dir " + path + " but this JVM was started with -D" + PROPERTY
                    + "=" + set + ": give one of them");
        }
        Optional<Path> loaded = loadedLibrary();
        if (loaded.isPresent() && !loaded.get().getParent().equals(path)) {
            throw new IllegalStateException("--ort-native-dir " + path + " but ONNX Runtime is already loaded in this"
                    + " JVM from " + loaded.get() + " (it loads once per JVM): on a cluster give the TaskManagers"
                    + " env.java.opts.taskmanager: -D" + PROPERTY + "=" + path + " and restart them");
        }
        System.setProperty(PROPERTY, path.toString());
    }

    /** Where this JVM mapped ORT's library from ({@code /proc/self/maps}); empty when not loaded or not Linux. */
    public static Optional<Path> loadedLibrary() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int slash = line.indexOf('/');
                String file = line.endsWith(" (deleted)") ? line.substring(0, line.length() - 10) : line;
                if (slash > 0 && file.endsWith("/libonnxruntime.so")) {
                    return Optional.of(Path.of(file.substring(slash)));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: nothing to compare against
        }
        return Optional.empty();
    }
}
