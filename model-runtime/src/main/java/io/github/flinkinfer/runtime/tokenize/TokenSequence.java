package io.github.flinkinfer.runtime.tokenize;

/**
 * A text's whole token sequence, untruncated, split around its special tokens, so it can be cut
 * into windows that each get the model's special tokens back ({@code prefix + window + suffix}).
 *
 * @param prefix leading special tokens (e.g. {@code [CLS]}), then the input prefix's tokens if any
 * @param content the text's own tokens; chunk offsets index into this array
 * @param suffix trailing special tokens (e.g. {@code [SEP]})
 */
public record TokenSequence(int[] prefix, int[] content, int[] suffix) {
    /** The whole text's token count, special tokens included (exact, unlike a truncated encode's). */
    public int length() {
        return prefix.length + content.length + suffix.length;
    }

    public int specialCount() {
        return prefix.length + suffix.length;
    }
}
