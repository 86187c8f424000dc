package io.github.flinkinfer.runtime.tokenize;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.Map;

/**
 * The tokenization {@link TextTokenizer#encode} did before it fetched ids only and cut long texts:
 * DJL's {@code encode} of the whole text (all eight {@code Encoding} arrays), then right
 * truncation keeping the final special token. The reference for bit-identical ids and the
 * "before" of {@link TokenizerRounds}.
 */
final class WholeTextEncoder implements AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final String prefix;
    private final int maxLength;

    WholeTextEncoder(ModelCard card, int maxLength) {
        this.tokenizer = TextTokenizer.open(card, Map.of("truncation", "false"));
        this.prefix = card.inputPrefix();
        this.maxLength = maxLength;
    }

    TokenizedText encode(String text) {
        long[] all = tokenizer.encode(prefix + text, true, false).getIds();
        int keep = Math.min(all.length, maxLength);
        int[] ids = new int[keep];
        for (int i = 0; i < keep; i++) {
            ids[i] = (int) all[i];
        }
        if (keep < all.length && keep > 0) {
            ids[keep - 1] = (int) all[all.length - 1];
        }
        return new TokenizedText(ids, all.length);
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
