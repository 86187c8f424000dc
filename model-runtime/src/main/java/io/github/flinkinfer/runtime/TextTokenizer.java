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
 * a single sequence. Padding is the batcher's job. The card's input prefix for this run (e5's
 * {@code passage: }, bge's query instruction) is put before every text here, so every user of the
 * tokenizer (job, SQL, bench) embeds what the model was trained on; truncation keeps it.
 * {@link #encodePair} encodes a query and a passage as one input, for cross-encoders.
 *
 * <pre>{@code
 * try (TextTokenizer tok = TextTokenizer.load(card, options)) {
 *     TokenizedText text = tok.encode("a passage");
 *     TokenizedText pair = tok.encodePair("a query", "a passage"); // segment ids 0..0 1..1
 * }
 * }</pre>
 */
public final class TextTokenizer implements AutoCloseable {
    static {
        // Without this DJL may try to reach the network when it initialises.
        System.setProperty("ai.djl.offline", "true");
    }

    private final HuggingFaceTokenizer tokenizer;
    private final ModelCard card;
    /** The same tokenizer truncating pairs longest-first; made on the first pair that needs it. */
    private HuggingFaceTokenizer pairTruncator;
    private final int maxLength;
    private final String prefix;
    /** Tokens the prefix adds between the leading special tokens and the text's own. */
    private final int prefixTokens;

    private TextTokenizer(HuggingFaceTokenizer tokenizer, ModelCard card, int maxLength, String prefix) {
        this.tokenizer = tokenizer;
        this.card = card;
        this.maxLength = maxLength;
        this.prefix = prefix;
        this.prefixTokens = prefix.isEmpty() ? 0 : prefixTokenCount();
    }

    /**
     * Counts the prefix's own tokens, and checks that they stay apart from a following word:
     * {@code prefix + "text"} must tokenize as the prefix's tokens then the word's.
     */
    private int prefixTokenCount() {
        Encoding alone = tokenizer.encode(prefix, true, false);
        long[] special = alone.getSpecialTokenMask();
        int lead = 0;
        while (lead < special.length && special[lead] != 0) {
            lead++;
        }
        int end = special.length;
        while (end > lead && special[end - 1] != 0) {
            end--;
        }
        long[] word = tokenizer.encode("text", true, false).getIds();
        long[] expected = new long[end + word.length - lead];
        System.arraycopy(alone.getIds(), 0, expected, 0, end);
        System.arraycopy(word, lead, expected, end, word.length - lead);
        if (!java.util.Arrays.equals(expected, tokenizer.encode(prefix + "text", true, false).getIds())) {
            throw new IllegalArgumentException("Input prefix '" + prefix
                    + "' does not tokenize apart from the text that follows it; end it with a"
                    + " space or punctuation");
        }
        return end - lead;
    }

    private static final java.util.concurrent.atomic.AtomicBoolean PRELOADING =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Starts loading DJL's native tokenizer library on a background thread, once per JVM: the
     * first tokenizer of a JVM otherwise pays for it (about as long as creating the model's
     * session), so a subtask that builds its session meanwhile gets its tokenizer sooner. A
     * {@link #load} during the preload waits for it (class initialization); a failed preload
     * fails that load as it would have anyway.
     */
    public static void preloadLibrary() {
        if (PRELOADING.compareAndSet(false, true)) {
            Thread t = new Thread(() -> {
                try {
                    ai.djl.huggingface.tokenizers.jni.LibUtils.checkStatus();
                } catch (RuntimeException | LinkageError e) {
                    // reported by the load that needs the library
                }
            }, "tokenizer-library-preload");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Loads the card's tokenizer (checksum verified) with the effective max length. */
    public static TextTokenizer load(ModelCard card, RuntimeOptions options) {
        HuggingFaceTokenizer hf = open(card, Map.of("truncation", "false"));
        return new TextTokenizer(hf, card, options.effectiveMaxLength(card), card.inputPrefix());
    }

    /** The card's tokenizer without padding, with special tokens and the given truncation. */
    private static HuggingFaceTokenizer open(ModelCard card, Map<String, String> truncation) {
        byte[] json = ModelFiles.readVerified(card, card.tokenizer);
        Map<String, String> settings = new java.util.HashMap<>(truncation);
        settings.put("padding", "false");
        settings.put("addSpecialTokens", "true");
        settings.put("modelMaxLength", String.valueOf(Integer.MAX_VALUE));
        try {
            return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(json), settings);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load tokenizer of " + card.id(), e);
        }
    }

    public int maxLength() {
        return maxLength;
    }

    /**
     * Tokens every input carries besides its text: the special tokens and the input prefix's
     * (a chunk window plus these must fit the max length).
     */
    public int reservedTokens() {
        return tokenizer.encode("", true, false).getIds().length + prefixTokens;
    }

    public TokenizedText encode(String text) {
        Encoding encoding = tokenizer.encode(prefix + text, true, false);
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

    /**
     * A text pair (query, passage) as one input, in the model's pair template ({@code [CLS] first
     * [SEP] second [SEP]} for BERT), with segment ids 0 for the first text and 1 for the second.
     * Over the max length, tokens go from the end of the longer text first (HF's {@code
     * longest_first}), so both texts keep their start. Pairs get no input prefix: a card's
     * prefixes are for single texts.
     */
    public TokenizedText encodePair(String first, String second) {
        Encoding whole = tokenizer.encode(first, second, true, false);
        int original = whole.getIds().length;
        Encoding kept = original <= maxLength ? whole : pairTruncator().encode(first, second, true, false);
        long[] ids = kept.getIds();
        return new TokenizedText(ints(ids, 0, ids.length), original,
                ints(kept.getTypeIds(), 0, ids.length));
    }

    private synchronized HuggingFaceTokenizer pairTruncator() {
        if (pairTruncator == null) {
            pairTruncator = open(card, Map.of("truncation", "longest_first",
                    "maxLength", String.valueOf(maxLength)));
        }
        return pairTruncator;
    }

    /**
     * The whole sequence, untruncated, with special tokens (and the input prefix, which leads
     * every window) split off, for chunking.
     */
    public TokenSequence encodeAll(String text) {
        Encoding encoding = tokenizer.encode(prefix + text, true, false);
        long[] ids = encoding.getIds();
        long[] special = encoding.getSpecialTokenMask();
        int from = 0;
        while (from < ids.length && special[from] != 0) {
            from++;
        }
        from = Math.min(from + prefixTokens, ids.length); // the prefix goes with every window
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
        synchronized (this) {
            if (pairTruncator != null) {
                pairTruncator.close();
            }
        }
    }
}
