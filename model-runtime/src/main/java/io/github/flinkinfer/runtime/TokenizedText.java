package io.github.flinkinfer.runtime;

/**
 * Token ids of one text, already cut to the model's maximum length.
 *
 * @param ids token ids including special tokens, at most the max length
 * @param originalTokenCount token count before truncation (equals {@code ids.length} when not
 *     truncated)
 */
public record TokenizedText(int[] ids, int originalTokenCount) {
    public boolean truncated() {
        return originalTokenCount > ids.length;
    }
}
