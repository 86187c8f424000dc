package io.github.flinkinfer.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DT_NEEDED of ONNX Runtime's own JNI library (from the onnxruntime jar on the test class path). */
class ElfNeededTest {
    @TempDir Path tmp;

    @Test
    void readsTheNeededSonamesInOrder() throws IOException {
        Path jni = tmp.resolve("libonnxruntime4j_jni.so");
        try (InputStream in = getClass().getResourceAsStream("/ai/onnxruntime/native/linux-x64/libonnxruntime4j_jni.so")) {
            Files.copy(in, jni);
        }
        // as readelf -d lists them: the JNI binding needs ORT's library by its soname, then libc
        assertThat(ElfNeeded.of(jni)).containsExactly("libonnxruntime.so.1", "libc.so.6");
    }

    @Test
    void refusesWhatIsNotAnElfLibrary() throws IOException {
        Path text = Files.writeString(tmp.resolve("libfake.so.12"), "not a library, just a name".repeat(4));
        assertThatThrownBy(() -> ElfNeeded.of(text)).isInstanceOf(IOException.class).hasMessageContaining("not an ELF file");
    }
}
