package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sha256 of bytes and of files is the standard one, before and after this JVM's warm-up. */
class Sha256Test {
    @TempDir Path dir;

    @Test
    void standardTestVectors() {
        // FIPS 180-2, appendix B.1 and B.2
        assertThat(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(Sha256.of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
                        .getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        assertThat(Sha256.of(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void aLargeArrayAndItsFileHashAlikeAndAsTheyDidBeforeTheWarmUp() throws Exception {
        byte[] large = new byte[9 << 20]; // over the size that waits for the warm-up
        new Random(7).nextBytes(large);
        byte[] small = java.util.Arrays.copyOf(large, 1 << 20);
        String smallBefore = Sha256.of(small);
        Path file = Files.write(dir.resolve("graph.onnx"), large);

        String ofBytes = Sha256.of(large);
        Sha256.warmUp(); // a second start does nothing
        assertThat(Sha256.of(file)).isEqualTo(ofBytes);
        assertThat(Sha256.of(small)).isEqualTo(smallBefore);
        assertThat(ModelFiles.sha256(file)).isEqualTo(ofBytes);
    }
}
