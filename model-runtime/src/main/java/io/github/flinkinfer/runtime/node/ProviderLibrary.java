package io.github.flinkinfer.runtime.node;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * ONNX Runtime's CUDA provider library a run would load and the sonames it needs: the one in the
 * {@code onnxruntime_gpu} jar (its needs recorded at build time by record-cuda-needs.sh, so no
 * 370 MB library is read at run time), or the one in an {@code --ort-native-dir} (read there).
 *
 * @param source what it is, for the report ({@code onnxruntime_gpu 1.23.2 (bundled)}, a path)
 * @param present whether a run would find it (on the classpath, in the directory)
 * @param needed its DT_NEEDED sonames
 * @param recordedFrom where the list came from (the recorded library and its sha256), for the report
 * @param absent why it is not there and what to do, when it is not
 */
public record ProviderLibrary(String source, boolean present, List<String> needed, String recordedFrom, String absent) {
    /** The provider's file name in a native directory and in the jar. */
    public static final String FILE = "libonnxruntime_providers_cuda.so";

    static final String RECORD = "node/onnxruntime-cuda-provider.properties";

    public ProviderLibrary {
        needed = List.copyOf(needed);
    }

    /** The CUDA major version it is built for ({@code libcudart.so.N}); 0 when it names none. */
    public int cudaMajor() {
        return majorOf("libcudart.so.");
    }

    /** The cuDNN major version it needs ({@code libcudnn.so.N}); 0 when it needs none. */
    public int cudnnMajor() {
        return majorOf("libcudnn.so.");
    }

    private int majorOf(String prefix) {
        for (String soname : needed) {
            if (soname.startsWith(prefix) && soname.substring(prefix.length()).matches("\\d+")) {
                return Integer.parseInt(soname.substring(prefix.length()));
            }
        }
        return 0;
    }

    /** The {@code onnxruntime_gpu} provider, present when {@code classes} (a run's class path) carries it. */
    public static ProviderLibrary bundled(ClassLoader classes) {
        Properties recorded = new Properties();
        try (InputStream in = ProviderLibrary.class.getClassLoader().getResourceAsStream(RECORD)) {
            if (in == null) {
                throw new IllegalStateException(RECORD + " is missing from model-runtime's jar");
            }
            recorded.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String library = recorded.getProperty("library");
        String version = recorded.getProperty("version");
        boolean present = classes.getResource(library) != null;
        String absent = "this build carries ONNX Runtime for CPU only (the onnxruntime artifact, no CUDA provider):"
                + " build with -Pgpu (onnxruntime_gpu " + version + "), use deploy/docker's image, or point"
                + " --ort-native-dir at an ONNX Runtime build with CUDA";
        return new ProviderLibrary("onnxruntime_gpu " + version + (present ? " (on the class path)" : " (not on the class path)"),
                present, List.of(recorded.getProperty("needed").split(",")),
                "recorded from " + recorded.getProperty("artifact") + "'s " + Path.of(library).getFileName()
                        + ", sha256 " + recorded.getProperty("sha256"),
                absent);
    }

    /** The provider in an ONNX Runtime native directory ({@code --ort-native-dir}), its needs read from the file. */
    public static ProviderLibrary inDirectory(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return new ProviderLibrary(file.toString(), false, List.of(), "-",
                    dir + " has no " + FILE + ": it is a CPU build of ONNX Runtime; point --ort-native-dir at"
                            + " a build with CUDA (its libonnxruntime.so, libonnxruntime4j_jni.so,"
                            + " libonnxruntime_providers_shared.so and " + FILE + ")");
        }
        try {
            return new ProviderLibrary(file.toString(), true, ElfNeeded.of(file), "read from " + file, null);
        } catch (IOException e) {
            return new ProviderLibrary(file.toString(), false, List.of(), "-",
                    file + " cannot be read as a shared library (" + e.getMessage() + ")");
        }
    }
}
