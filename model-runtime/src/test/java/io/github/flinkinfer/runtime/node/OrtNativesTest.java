package io.github.flinkinfer.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The refusals of {@link OrtNatives#use}, in a JVM that has loaded ORT from the jar (the run from
 * a directory is the launcher's ITCase: ORT loads once per JVM).
 */
class OrtNativesTest {
    @TempDir Path tmp;

    @Test
    void aDirectoryWithoutOrtsLibrariesIsRefusedByName() {
        assertThat(OrtNatives.missingIn(tmp)).containsExactly("libonnxruntime.so", "libonnxruntime4j_jni.so");
        assertThatThrownBy(() -> OrtNatives.use(tmp.toString())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--ort-native-dir " + tmp + " lacks libonnxruntime.so, libonnxruntime4j_jni.so");
        assertThat(System.getProperty(OrtNatives.PROPERTY)).isNull();
    }

    @Test
    void aJvmThatLoadedOrtElsewhereSaysWhereAndHowToFixIt() throws IOException {
        OrtEnvironment.getEnvironment(); // this JVM's ORT, from the jar
        Files.createFile(tmp.resolve("libonnxruntime.so"));
        Files.createFile(tmp.resolve("libonnxruntime4j_jni.so"));

        assertThat(OrtNatives.loadedLibrary()).hasValueSatisfying(p -> assertThat(p).hasFileName("libonnxruntime.so"));
        assertThatThrownBy(() -> OrtNatives.use(tmp.toString())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ONNX Runtime is already loaded in this JVM from " + OrtNatives.loadedLibrary().get())
                .hasMessageContaining("env.java.opts.taskmanager: -D" + OrtNatives.PROPERTY + "=" + tmp);
        assertThat(System.getProperty(OrtNatives.PROPERTY)).isNull();
        OrtNatives.use(null); // no directory: nothing to check
    }
}
