package io.github.flinkinfer.operators.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * Overlapping windows over a sequence of {@code n} content tokens: windows of {@code size}
 * tokens starting every {@code size - overlap} tokens, the last one ending at {@code n}. A
 * sequence no longer than one window (also an empty one) gives the single window {@code [0, n)}.
 *
 * <pre>{@code
 * TokenWindows.of(10, 4, 1)  // [0,4) [3,7) [6,10)
 * }</pre>
 */
public final class TokenWindows {
    /** One window: {@code [start, end)} in the document's content tokens. */
    public record Window(int index, int start, int end) {
        public int length() {
            return end - start;
        }
    }

    private TokenWindows() {}

    public static List<Window> of(int n, int size, int overlap) {
        if (size <= 0 || overlap < 0 || overlap >= size) {
            throw new IllegalArgumentException("need size > 0 and 0 <= overlap < size");
        }
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0");
        }
        List<Window> out = new ArrayList<>();
        int stride = size - overlap;
        int start = 0;
        while (true) {
            int end = Math.min(n, start + size);
            out.add(new Window(out.size(), start, end));
            if (end == n) {
                return out;
            }
            start += stride;
        }
    }
}
