package io.github.flinkinfer.runtime;

/**
 * Token ids of one text, or of a text pair, already cut to the model's maximum length.
 *
 * @param ids token ids including special tokens, at most the max length
 * @param originalTokenCount token count before truncation: exact when not truncated (then it
 *     equals {@code ids.length}); when truncated, more than the max length but possibly less than
 *     the whole text's count, since {@code tokenize.TextTokenizer.encode} stops tokenizing a long text after
 *     a head longer than the max length (text pairs: exact; {@code tokenize.TextTokenizer.encodeAll}: exact)
 * @param segmentIds per token, which text it belongs to (the model's {@code token_type_ids}): all
 *     0 for a single text; 0 for the first text of a pair and 1 for the second
 */
public record TokenizedText(int[] ids, int originalTokenCount, int[] segmentIds) {

    public TokenizedText {
        if (segmentIds.length != ids.length) {
            throw new IllegalArgumentException(
                    segmentIds.length + " segment ids for " + ids.length + " tokens");
        }
    }

    /** A single text: every segment id 0. */
    public TokenizedText(int[] ids, int originalTokenCount) {
        this(ids, originalTokenCount, new int[ids.length]);
    }

    public boolean truncated() {
        return originalTokenCount > ids.length;
    }
}
