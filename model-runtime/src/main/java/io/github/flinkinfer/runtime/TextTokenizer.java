package io.github.flinkinfer.runtime;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * HF {@code tokenizer.json} through DJL, strictly offline. The file's baked-in padding and
 * truncation are switched off: we tokenize the whole text (to report the original length), then
 * cut to the max length keeping the final special token, exactly as HF right-truncation does for
 * a single sequence. Padding is the batcher's job.
 */
public final class TextTokenizer implements AutoCloseable {
    static {
        // Without this DJL may try to reach the network when it initialises.
        System.setProperty("ai.djl.offline", "true");
    }

    private final HuggingFaceTokenizer tokenizer;
    private final int maxLength;

    private TextTokenizer(HuggingFaceTokenizer tokenizer, int maxLength) {
        this.tokenizer = tokenizer;
        this.maxLength = maxLength;
    }

    /** Loads the card's tokenizer (checksum verified) with the effective max length. */
    public static TextTokenizer load(ModelCard card, RuntimeOptions options) {
        byte[] json = ModelFiles.readVerified(card, card.tokenizer);
        try {
            HuggingFaceTokenizer hf =
                    HuggingFaceTokenizer.newInstance(
                            new ByteArrayInputStream(json),
                            Map.of(
                                    "truncation", "false",
                                    "padding", "false",
                                    "addSpecialTokens", "true",
                                    "modelMaxLength", String.valueOf(Integer.MAX_VALUE)));
            return new TextTokenizer(hf, options.effectiveMaxLength(card));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load tokenizer of " + card.id(), e);
        }
    }

    public int maxLength() {
        return maxLength;
    }

    public TokenizedText encode(String text) {
        Encoding encoding = tokenizer.encode(text, true, false);
        long[] all = encoding.getIds();
        int keep = Math.min(all.length, maxLength);
        int[] ids = new int[keep];
        for (int i = 0; i < keep; i++) {
            ids[i] = (int) all[i];
        }
        if (keep < all.length && keep > 0) {
            ids[keep - 1] = (int) all[all.length - 1]; // keep the closing special token ([SEP])
        }
        return new TokenizedText(ids, all.length);
    }

    /** The whole sequence, untruncated, with special tokens split off (for chunking). */
    public TokenSequence encodeAll(String text) {
        Encoding encoding = tokenizer.encode(text, true, false);
        long[] ids = encoding.getIds();
        long[] special = encoding.getSpecialTokenMask();
        int from = 0;
        while (from < ids.length && special[from] != 0) {
            from++;
        }
        int to = ids.length;
        while (to > from && special[to - 1] != 0) {
            to--;
        }
        return new TokenSequence(ints(ids, 0, from), ints(ids, from, to), ints(ids, to, ids.length));
    }

    private static int[] ints(long[] ids, int from, int to) {
        int[] out = new int[to - from];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) ids[from + i];
        }
        return out;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
