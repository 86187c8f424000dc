package io.github.flinkinfer.operators.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.operators.chunk.TokenWindows.Window;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenWindowsTest {

    @Test
    void windowsOverlapByTheGivenTokensAndTheLastEndsAtTheDocumentEnd() {
        assertThat(TokenWindows.of(10, 4, 1)).containsExactly(
                new Window(0, 0, 4), new Window(1, 3, 7), new Window(2, 6, 10));
    }

    @Test
    void withoutOverlapWindowsTileTheDocument() {
        assertThat(TokenWindows.of(9, 4, 0)).containsExactly(
                new Window(0, 0, 4), new Window(1, 4, 8), new Window(2, 8, 9));
    }

    @Test
    void everyTokenIsCoveredAndConsecutiveWindowsShareExactlyTheOverlap() {
        for (int n = 1; n < 300; n += 7) {
            List<Window> ws = TokenWindows.of(n, 32, 8);
            assertThat(ws.get(0).start()).isZero();
            assertThat(ws.get(ws.size() - 1).end()).isEqualTo(n);
            for (int i = 0; i < ws.size(); i++) {
                assertThat(ws.get(i).index()).isEqualTo(i);
                assertThat(ws.get(i).length()).isBetween(1, 32);
                if (i > 0) {
                    assertThat(ws.get(i - 1).end() - ws.get(i).start()).isEqualTo(8);
                    assertThat(ws.get(i - 1).length()).isEqualTo(32);
                }
            }
        }
    }

    @Test
    void aDocumentShorterThanOrEqualToAWindowIsOneWindow() {
        assertThat(TokenWindows.of(3, 8, 2)).containsExactly(new Window(0, 0, 3));
        assertThat(TokenWindows.of(8, 8, 2)).containsExactly(new Window(0, 0, 8));
        assertThat(TokenWindows.of(0, 8, 2)).containsExactly(new Window(0, 0, 0));
    }

    @Test
    void oneTokenPastAWindowAddsAWindowStartingAtTheStride() {
        assertThat(TokenWindows.of(9, 8, 2)).containsExactly(new Window(0, 0, 8), new Window(1, 6, 9));
    }

    @Test
    void overlapAtLeastTheSizeIsRejected() {
        assertThatThrownBy(() -> TokenWindows.of(10, 4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Chunking(4, 4, Chunking.Pooling.NONE))
                .hasMessageContaining("--chunk-overlap");
        assertThatThrownBy(() -> new Chunking(4, 5, Chunking.Pooling.NONE))
                .hasMessageContaining("--chunk-overlap");
        assertThatThrownBy(() -> new Chunking(4, -1, Chunking.Pooling.NONE))
                .hasMessageContaining("--chunk-overlap");
    }

    @Test
    void poolingOrOverlapWithoutChunkSizeIsRejected() {
        assertThatThrownBy(() -> new Chunking(0, 2, Chunking.Pooling.NONE))
                .hasMessageContaining("--chunk-size");
        assertThatThrownBy(() -> new Chunking(0, 0, Chunking.Pooling.MEAN))
                .hasMessageContaining("--chunk-size");
    }

    @Test
    void aWindowPlusSpecialTokensMustFitTheModel() {
        new Chunking(254, 0, Chunking.Pooling.NONE).validateFor(256, 2);
        assertThatThrownBy(() -> new Chunking(255, 0, Chunking.Pooling.NONE).validateFor(256, 2))
                .hasMessageContaining("max length 256");
    }

    @Test
    void theFingerprintChangesWithEverySettingThatChangesVectors() {
        Chunking a = new Chunking(128, 16, Chunking.Pooling.NONE);
        assertThat(a.fingerprint(256, OverlongPolicy.TRUNCATE)).isEqualTo("max_length=256;chunk=128/16;pooling=none");
        assertThat(Chunking.OFF.fingerprint(256, OverlongPolicy.TRUNCATE)).isEqualTo("max_length=256;overlong=truncate");
        assertThat(new Chunking(128, 8, Chunking.Pooling.NONE).fingerprint(256, OverlongPolicy.TRUNCATE))
                .isNotEqualTo(a.fingerprint(256, OverlongPolicy.TRUNCATE));
    }
}
