package io.github.flinkinfer.runtime.tokenize;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.runtime.JvmShared;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.onnx.SharedResources;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * HF {@code tokenizer.json} through DJL, strictly offline. The file's baked-in padding and
 * truncation are switched off: we tokenize the text, then cut to the max length keeping the final
 * special token, exactly as HF right-truncation does for a single sequence. Padding is the
 * batcher's job. Only the token ids cross JNI (not DJL's eight {@link Encoding} arrays: token
 * strings, char spans); an ASCII text of a BERT tokenizer does not cross JNI at all: {@link
 * WordPieceEncoder} gives the library's ids several times faster (bit-identical, checked
 * by {@code TokenizationEquivalenceTest}). A long text is tokenized only as far as needed ({@link WordCut}): then
 * {@link TokenizedText#originalTokenCount} is a lower bound, above the max length;
 * {@link #encodeAll} always tokenizes the whole text. The card's input prefix for this run (e5's
 * {@code passage: }, bge's query instruction) is put before every text here, so every user of the
 * tokenizer (job, SQL, bench) embeds what the model was trained on; truncation keeps it.
 * {@link #encodePair} encodes a query and a passage as one input, for cross-encoders. The native
 * tokenizer is shared by every load of the same file and settings in the JVM ({@link #NATIVE}).
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

    private static final TokenizersLibrary LIB = TokenizersLibrary.LIB;

    /** This load's hold on the JVM's shared native tokenizer of the file. */
    private final SharedResources.Lease<HuggingFaceTokenizer> lease;
    private final HuggingFaceTokenizer tokenizer;
    /** The native tokenizer's handle, for the id-only calls. */
    private final long handle;
    /** Where a long text may be cut before tokenizing; {@code null}: never, tokenize it whole. */
    private final WordCut cut;
    /** BERT's pipeline in Java for ASCII texts; {@code null}: every text goes to the HF library. */
    private final WordPieceEncoder fast;
    private final ModelCard card;
    /**
     * The same tokenizer truncating pairs longest-first (shared like {@link #tokenizer}); leased on
     * the first pair that needs it.
     */
    private SharedResources.Lease<HuggingFaceTokenizer> pairTruncator;
    private final int maxLength;
    private final String prefix;
    /** Tokens the prefix adds between the leading special tokens and the text's own. */
    private final int prefixTokens;

    private TextTokenizer(SharedResources.Lease<HuggingFaceTokenizer> lease, ModelCard card, int maxLength,
            String prefix, WordCut cut, WordPieceEncoder fast) {
        this.lease = lease;
        this.tokenizer = lease.value();
        this.handle = tokenizer.getHandle();
        this.cut = cut;
        this.fast = fast;
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

    private static final java.util.concurrent.atomic.AtomicBoolean PRELOADING = JvmShared.slot(
            "tokenize.preloading", "DJL's native tokenizer library is loaded once per JVM, in the background",
            java.util.concurrent.atomic.AtomicBoolean::new, null); // a loaded library stays loaded

    /**
     * Starts loading DJL's native tokenizer library on a background thread, once per JVM: the
     * first tokenizer of a JVM otherwise pays for it (about as long as creating the model's
     * session), so a subtask that builds its session meanwhile gets its tokenizer sooner. A
     * {@link #load} during the preload waits for it (class initialization); a failed preload
     * fails that load as it would have anyway.
     */
    private static void preloadLibrary() {
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
        return load(card, options, true);
    }

    /**
     * {@link #load}, with the Java WordPiece fast path or without it (every text through the HF
     * library: for the equivalence test and the benchmark's side-by-side rounds).
     */
    static TextTokenizer load(ModelCard card, RuntimeOptions options, boolean javaWordPiece) {
        byte[] json = ModelFiles.readVerified(card, card.tokenizer);
        SharedResources.Lease<HuggingFaceTokenizer> lease = lease(card, Map.of("truncation", "false"), () -> json);
        try {
            int maxLength = options.effectiveMaxLength(card);
            Definition d = Definition.of(card.tokenizer.sha256(), json);
            return new TextTokenizer(lease, card, maxLength, card.inputPrefix(),
                    d.cuttable() ? new WordCut(maxLength) : null, javaWordPiece ? d.fast() : null);
        } catch (RuntimeException | Error e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Native tokenizers shared per JVM, by file and settings: opening one parses the whole
     * {@code tokenizer.json} on the native side (0.32 s for the slowest of 2 subtasks, 1.24 s of 16
     * on 2 cores). Sharing is safe: DJL sets a tokenizer's truncation and padding only when
     * creating it, and an encode reads the native tokenizer ({@code &self} in Rust) and nothing of
     * the Java object but its handle, so subtasks encode with one instance at the same time.
     */
    private static final SharedResources<NativeKey, HuggingFaceTokenizer> NATIVE = JvmShared.slot(
            "tokenize.native", "one native HF tokenizer per tokenizer file and settings, shared by the"
                    + " subtasks of a JVM (its settings are fixed at creation, its encode is read-only)",
            SharedResources::new, null); // each tokenizer closes with its last lease

    /** What makes two native tokenizers the same: the file's verified sha256 and every setting. */
    private record NativeKey(String sha256, Map<String, String> settings) {}

    /**
     * A lease on the JVM's native tokenizer of the card's file with {@code truncation}; {@code json}
     * (the verified file) is read only when this JVM has no such tokenizer open.
     */
    private static SharedResources.Lease<HuggingFaceTokenizer> lease(ModelCard card,
            Map<String, String> truncation, Supplier<byte[]> json) {
        return NATIVE.acquire(new NativeKey(card.tokenizer.sha256(), Map.copyOf(truncation)),
                () -> open(card, json.get(), truncation));
    }

    /** The JVM's shared native tokenizers; for tests. */
    static SharedResources<?, HuggingFaceTokenizer> sharedNative() {
        return NATIVE;
    }

    /** The native tokenizer this load encodes with; for tests. */
    HuggingFaceTokenizer nativeTokenizer() {
        return tokenizer;
    }

    /**
     * Prepares {@code card}'s tokenizer loads in this JVM ahead of them, on a daemon thread: the
     * native library, and the parsed definition the loads share ({@link Definition}). A driver
     * that runs its own embedded cluster calls it beside {@code PreparedSessions}, so the
     * subtasks' loads, which then only read and verify the file and open the native tokenizer
     * (already used once here), do not put the parse on the way to the first batch; an inference
     * subtask calls it before loading its model, since the tokenizer chained before it opens only
     * after it (on a TaskManager the parse then overlaps the model load). Nothing to do when this
     * JVM has the definition already, or the card names no tokenizer. A failure is left to the
     * loads.
     */
    public static void prepare(ModelCard card) {
        if (card.tokenizer == null) {
            return;
        }
        String sha256 = card.tokenizer.sha256();
        if (Definition.known(sha256) || !PREPARING.add(sha256)) {
            return; // parsed already, or a prepare of it is running (the driver's, another subtask's)
        }
        preloadLibrary();
        Thread t = new Thread(() -> {
            try {
                byte[] json = ModelFiles.readVerified(card, card.tokenizer);
                Definition.of(sha256, json);
                open(card, json, Map.of("truncation", "false")).close(); // the native side's first use
            } catch (RuntimeException e) {
                // reported by the subtask's load
            } finally {
                PREPARING.remove(sha256);
            }
        }, "prepare-tokenizer-" + card.id());
        t.setDaemon(true);
        t.start();
    }

    /** The sha256 of the tokenizer files a {@link #prepare} thread is working on. */
    private static final java.util.Set<String> PREPARING = JvmShared.slot("tokenize.preparing",
            "tokenizer files a prepare thread is parsing, so a JVM parses each once",
            java.util.concurrent.ConcurrentHashMap::newKeySet, java.util.Set::clear);

    /**
     * What a {@code tokenizer.json} gives the Java side, parsed once per JVM and shared by every
     * load of the same file (by its verified sha256; the parse of a 700 KB vocabulary took 90-200
     * ms per load, several times that in a cold JVM): whether long texts may be cut before
     * tokenizing ({@link WordCut}) and the WordPiece fast path ({@link WordPieceEncoder},
     * immutable), each absent for a form only the HF library reads. A load that meets a parse of
     * the same file in progress waits for it rather than parsing again. At most {@link #KEPT}
     * definitions are kept.
     */
    record Definition(boolean cuttable, WordPieceEncoder fast) {
        static final int KEPT = 8;
        private static final Map<String, Definition> BY_SHA256 = JvmShared.slot("tokenize.definitions",
                "tokenizer.json parsed once per JVM and shared by every load of the same file",
                java.util.concurrent.ConcurrentHashMap::new, Map::clear);

        static boolean known(String sha256) {
            return BY_SHA256.containsKey(sha256);
        }

        static Definition of(String sha256, byte[] json) {
            Definition d = BY_SHA256.get(sha256);
            if (d != null) {
                return d;
            }
            if (BY_SHA256.size() >= KEPT) {
                BY_SHA256.clear();
            }
            return BY_SHA256.computeIfAbsent(sha256, k -> parse(json));
        }

        private static Definition parse(byte[] json) {
            JsonNode root;
            try {
                root = new ObjectMapper().readTree(json);
            } catch (IOException e) {
                return new Definition(false, null); // DJL parsed it: a form we do not know
            }
            return new Definition(WordCut.sound(root), WordPieceEncoder.forTokenizer(root));
        }
    }

    /** The card's tokenizer without padding, with special tokens and the given truncation. */
    static HuggingFaceTokenizer open(ModelCard card, Map<String, String> truncation) {
        return open(card, ModelFiles.readVerified(card, card.tokenizer), truncation);
    }

    private static HuggingFaceTokenizer open(ModelCard card, byte[] json, Map<String, String> truncation) {
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

    /** The text (after the card's input prefix) cut to the max length. */
    public TokenizedText encode(String text) {
        String input = prefix + text;
        String head = cut == null ? null : cut.head(input);
        if (head != null) {
            TokenizedText t = truncatedHead(ids(head));
            if (t != null) {
                return t;
            }
        }
        return truncated(ids(input));
    }

    /**
     * {@link #encode} of each text, in one native call for all of them (the tokenizer library's
     * batch encode); results in the order of {@code texts}.
     */
    public TokenizedText[] encodeBatch(List<String> texts) {
        String[] inputs = new String[texts.size()];
        boolean[] isHead = new boolean[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            String input = prefix + texts.get(i);
            String head = cut == null ? null : cut.head(input);
            isHead[i] = head != null;
            inputs[i] = isHead[i] ? head : input;
        }
        TokenizedText[] out = new TokenizedText[inputs.length];
        List<Integer> slow = new java.util.ArrayList<>();
        for (int i = 0; i < inputs.length; i++) {
            int[] ids = fast == null ? null : fast.ids(inputs[i]);
            if (ids == null) {
                slow.add(i);
            } else {
                out[i] = isHead[i] ? truncatedHead(ids) : truncated(ids);
            }
        }
        if (!slow.isEmpty()) {
            String[] slowInputs = new String[slow.size()];
            for (int j = 0; j < slowInputs.length; j++) {
                slowInputs[j] = inputs[slow.get(j)];
            }
            long[] encodings = LIB.batchEncode(handle, slowInputs, true);
            try {
                for (int j = 0; j < slowInputs.length; j++) {
                    int i = slow.get(j);
                    int[] ids = ints(LIB.getTokenIds(encodings[j]));
                    out[i] = isHead[i] ? truncatedHead(ids) : truncated(ids);
                }
            } finally {
                for (long e : encodings) {
                    LIB.deleteEncoding(e);
                }
            }
        }
        for (int i = 0; i < inputs.length; i++) {
            if (out[i] == null) { // the head was not longer than the max length: the whole text
                out[i] = truncated(ids(prefix + texts.get(i)));
            }
        }
        return out;
    }

    /**
     * The token ids of {@code input}, with special tokens: from the Java WordPiece when the text
     * is in its domain, else from the HF library (only the ids array fetched over JNI).
     */
    private int[] ids(String input) {
        int[] ids = fast == null ? null : fast.ids(input);
        return ids != null ? ids : ints(libraryIds(input));
    }

    private long[] libraryIds(String input) {
        long encoding = LIB.encode(handle, input, true);
        try {
            return LIB.getTokenIds(encoding);
        } finally {
            LIB.deleteEncoding(encoding);
        }
    }

    /**
     * The ids of a text's head, cut to the max length, when the head alone is longer than that
     * (the whole text then starts with the same tokens and is at least as long); else null.
     */
    private TokenizedText truncatedHead(int[] head) {
        return head.length > maxLength ? truncated(head) : null;
    }

    private TokenizedText truncated(int[] all) {
        int keep = Math.min(all.length, maxLength);
        int[] ids = keep == all.length ? all : java.util.Arrays.copyOf(all, keep);
        if (keep < all.length && keep > 0) {
            ids[keep - 1] = all[all.length - 1]; // keep the closing special token ([SEP])
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
        Encoding kept = original <= maxLength ? whole : pairTruncator().value().encode(first, second, true, false);
        long[] ids = kept.getIds();
        return new TokenizedText(ints(ids, 0, ids.length), original,
                ints(kept.getTypeIds(), 0, ids.length));
    }

    private synchronized SharedResources.Lease<HuggingFaceTokenizer> pairTruncator() {
        if (pairTruncator == null) {
            pairTruncator = lease(card, Map.of("truncation", "longest_first",
                    "maxLength", String.valueOf(maxLength)), () -> ModelFiles.readVerified(card, card.tokenizer));
        }
        return pairTruncator;
    }

    /**
     * The whole sequence, untruncated, with special tokens (and the input prefix, which leads
     * every window) split off, for chunking.
     */
    public TokenSequence encodeAll(String text) {
        int[] fastIds = fast == null ? null : fast.ids(prefix + text);
        if (fastIds != null) {
            int from = Math.min(fast.leadingSpecialTokens() + prefixTokens, fastIds.length);
            int to = Math.max(from, fastIds.length - fast.trailingSpecialTokens());
            return new TokenSequence(java.util.Arrays.copyOfRange(fastIds, 0, from),
                    java.util.Arrays.copyOfRange(fastIds, from, to),
                    java.util.Arrays.copyOfRange(fastIds, to, fastIds.length));
        }
        long encoding = LIB.encode(handle, prefix + text, true);
        long[] ids;
        long[] special;
        try {
            ids = LIB.getTokenIds(encoding);
            special = LIB.getSpecialTokenMask(encoding);
        } finally {
            LIB.deleteEncoding(encoding);
        }
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

    private static int[] ints(long[] ids) {
        return ints(ids, 0, ids.length);
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
        lease.close(); // closes the native tokenizer with its last user
        synchronized (this) {
            if (pairTruncator != null) {
                pairTruncator.close();
            }
        }
    }
}
