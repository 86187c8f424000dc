package io.github.flinkinfer.runtime.tokenize;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * BERT's tokenizer (HF {@code BertNormalizer} + {@code BertPreTokenizer} + {@code WordPiece} +
 * the {@code [CLS] $A [SEP]} template) for texts of printable ASCII, in Java: on such text the
 * HF library spends most of its time tracking alignments we never read, so this is several times
 * faster per character (docs/benchmarks/host-path.md). It is a fast path, never a second
 * tokenizer: {@link #ids} answers {@code null} for any text outside its domain (a character
 * above U+007F, or a text containing one of the file's added tokens, such as {@code [SEP]}),
 * and {@link TextTokenizer} then asks the HF library. {@link #forTokenizer} returns null for any
 * {@code tokenizer.json} that is not exactly this pipeline. {@code TokenizationEquivalenceTest}
 * checks it id for id against the HF library.
 *
 * <p>On ASCII the pipeline is: drop control characters (U+0000–U+001F but tab, line feed and
 * carriage return, and U+007F); lowercase if the file says so (accents and CJK do not occur);
 * split at whitespace and isolate every punctuation character (in ASCII, every character that
 * is neither a letter, a digit nor whitespace); then per word, greedy longest-match-first
 * WordPiece with the continuing-subword prefix, a word longer than {@code
 * max_input_chars_per_word} or with no match being one unknown token.
 */
final class WordPieceEncoder {
    private final PieceTable starts;
    private final PieceTable continuations;
    private final int unkId;
    private final int maxInputCharsPerWord;
    private final boolean lowercase;
    private final int[] lead;
    private final int[] trail;
    /** Added tokens matched in the raw text, then those matched in the normalized (lowercased) text. */
    private final String[] rawAdded;
    private final String[] normalizedAdded;
    /** The ASCII characters an added token starts with (either case): a text without any is never searched. */
    private final boolean[] addedFirstChars = new boolean[128];
    /** The longest piece of either table: the most prefixes a lookup hashes. */
    private final int longestPiece;

    private WordPieceEncoder(PieceTable starts, PieceTable continuations, int unkId, int maxInputCharsPerWord,
            boolean lowercase, int[] lead, int[] trail, String[] rawAdded, String[] normalizedAdded) {
        this.starts = starts;
        this.continuations = continuations;
        this.unkId = unkId;
        this.maxInputCharsPerWord = maxInputCharsPerWord;
        this.lowercase = lowercase;
        this.lead = lead;
        this.trail = trail;
        this.rawAdded = rawAdded;
        this.normalizedAdded = normalizedAdded;
        this.longestPiece = Math.max(starts.maxLength, continuations.maxLength);
        for (String s : rawAdded) {
            mark(s);
        }
        for (String s : normalizedAdded) {
            mark(s);
        }
    }

    private void mark(String s) {
        char c = s.charAt(0);
        if (c < 128) {
            addedFirstChars[c] = true;
            addedFirstChars[Character.toLowerCase(c)] = true;
            addedFirstChars[Character.toUpperCase(c)] = true;
        }
    }

    /** The fast path for this {@code tokenizer.json}, or null when it is not BERT's pipeline. */
    static WordPieceEncoder forTokenizer(JsonNode root) {
        JsonNode norm = root.path("normalizer");
        JsonNode model = root.path("model");
        if (!norm.path("type").asText().equals("BertNormalizer")
                || !norm.path("clean_text").asBoolean(false)
                || !root.path("pre_tokenizer").path("type").asText().equals("BertPreTokenizer")
                || !model.path("type").asText().equals("WordPiece")
                || !model.path("vocab").isObject()) {
            return null;
        }
        String prefix = model.path("continuing_subword_prefix").asText("##");
        int maxChars = model.path("max_input_chars_per_word").asInt(100);
        JsonNode unk = model.path("vocab").path(model.path("unk_token").asText("[UNK]"));
        if (!unk.isInt()) {
            return null;
        }
        int[][] template = singleTemplate(root.path("post_processor"));
        if (template == null) {
            return null;
        }
        List<String> raw = new ArrayList<>();
        List<String> normalized = new ArrayList<>();
        for (JsonNode added : root.path("added_tokens")) {
            String content = added.path("content").asText("");
            if (content.isEmpty()) {
                continue;
            }
            if (added.path("normalized").asBoolean(false)) {
                normalized.add(norm.path("lowercase").asBoolean(true) ? lowerAscii(content) : content);
            } else {
                raw.add(content);
            }
        }
        int continuing = 0;
        for (Iterator<String> it = model.path("vocab").fieldNames(); it.hasNext(); ) {
            if (!prefix.isEmpty() && it.next().startsWith(prefix)) {
                continuing++;
            }
        }
        PieceTable starts = new PieceTable(model.path("vocab").size());
        PieceTable continuations = new PieceTable(continuing);
        for (Iterator<Map.Entry<String, JsonNode>> it = model.path("vocab").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String piece = e.getKey();
            if (!prefix.isEmpty() && piece.startsWith(prefix)) {
                continuations.put(piece.substring(prefix.length()), e.getValue().asInt());
            }
            starts.put(piece, e.getValue().asInt()); // a word's first piece is looked up as it is
        }
        if (!starts.fits() || !continuations.fits()) {
            return null;
        }
        return new WordPieceEncoder(starts, continuations, unk.asInt(), maxChars,
                norm.path("lowercase").asBoolean(true), template[0], template[1],
                raw.toArray(String[]::new), normalized.toArray(String[]::new));
    }

    /**
     * The special-token ids before and after the text in the single-sequence template, or null
     * when the template is of a form we do not know (then the HF library does every text).
     */
    private static int[][] singleTemplate(JsonNode post) {
        String type = post.path("type").asText();
        if (type.equals("BertProcessing")) {
            JsonNode cls = post.path("cls");
            JsonNode sep = post.path("sep");
            if (!cls.path(1).isInt() || !sep.path(1).isInt()) {
                return null;
            }
            return new int[][] {{cls.path(1).asInt()}, {sep.path(1).asInt()}};
        }
        if (!type.equals("TemplateProcessing") || !post.path("single").isArray()) {
            return null;
        }
        List<Integer> before = new ArrayList<>();
        List<Integer> after = new ArrayList<>();
        boolean seenSequence = false;
        for (JsonNode piece : post.path("single")) {
            if (piece.has("Sequence")) {
                if (seenSequence || !piece.path("Sequence").path("id").asText().equals("A")
                        || piece.path("Sequence").path("type_id").asInt(0) != 0) {
                    return null;
                }
                seenSequence = true;
            } else if (piece.has("SpecialToken")) {
                JsonNode special = piece.path("SpecialToken");
                if (special.path("type_id").asInt(0) != 0) {
                    return null;
                }
                JsonNode ids = post.path("special_tokens").path(special.path("id").asText()).path("ids");
                if (!ids.isArray() || ids.isEmpty()) {
                    return null;
                }
                for (JsonNode id : ids) {
                    (seenSequence ? after : before).add(id.asInt());
                }
            } else {
                return null;
            }
        }
        if (!seenSequence) {
            return null;
        }
        return new int[][] {
            before.stream().mapToInt(Integer::intValue).toArray(), after.stream().mapToInt(Integer::intValue).toArray()
        };
    }

    /** Special tokens before the text's own (BERT: 1, {@code [CLS]}). */
    int leadingSpecialTokens() {
        return lead.length;
    }

    /** Special tokens after the text's own (BERT: 1, {@code [SEP]}). */
    int trailingSpecialTokens() {
        return trail.length;
    }

    /**
     * The text's token ids with the template's special tokens, exactly as the HF library gives
     * them; null when the text is outside this encoder's domain (then ask the library).
     */
    int[] ids(String text) {
        int n = text.length();
        char[] buf = new char[n];
        int len = 0;
        boolean mayHoldAdded = false;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 128) {
                return null;
            }
            mayHoldAdded |= addedFirstChars[c];
            if (c < 0x20) {
                if (c == '\t' || c == '\n' || c == '\r') {
                    buf[len++] = ' ';
                } // other control characters are dropped
            } else if (c == 0x7F) {
                continue;
            } else {
                buf[len++] = lowercase ? lowerAscii(c) : c;
            }
        }
        if (mayHoldAdded && holdsAdded(text, buf, len)) {
            return null;
        }
        IntList out = new IntList(lead.length + trail.length + len / 3 + 4);
        int[] prefixHashes = new int[longestPiece + 1]; // scratch for every word of this text
        out.addAll(lead);
        int i = 0;
        while (i < len) {
            char c = buf[i];
            if (c == ' ') {
                i++;
            } else if (isAlnum(c)) {
                int end = i + 1;
                while (end < len && isAlnum(buf[end])) {
                    end++;
                }
                word(buf, i, end, out, prefixHashes);
                i = end;
            } else { // punctuation: a word of its own
                word(buf, i, i + 1, out, prefixHashes);
                i++;
            }
        }
        out.addAll(trail);
        return out.toArray();
    }

    private boolean holdsAdded(String raw, char[] buf, int len) {
        for (String s : rawAdded) {
            if (raw.contains(s)) {
                return true;
            }
        }
        if (normalizedAdded.length > 0) {
            String normalized = new String(buf, 0, len);
            for (String s : normalizedAdded) {
                if (normalized.contains(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * WordPiece of {@code buf[from, to)}: greedy longest match first, else one unknown token;
     * {@code prefixHashes} is scratch of {@link #longestPiece} + 1 ints.
     */
    private void word(char[] buf, int from, int to, IntList out, int[] prefixHashes) {
        if (to - from > maxInputCharsPerWord) {
            out.add(unkId);
            return;
        }
        int mark = out.size();
        int start = from;
        while (start < to) {
            PieceTable table = start == from ? starts : continuations;
            int longest = Math.min(to - start, table.maxLength);
            int h = 0;
            for (int k = 0; k < longest; k++) { // the hash of every prefix of the rest, in one pass
                h = 31 * h + buf[start + k];
                prefixHashes[k + 1] = h;
            }
            long head = PieceTable.pack(buf, start, Math.min(longest, 8)); // the rest's first 16 chars
            long next = longest > 8 ? PieceTable.pack(buf, start + 8, Math.min(longest - 8, 8)) : 0;
            int id = -1;
            int end = start + longest;
            while (end > start) {
                int m = end - start;
                id = table.get(buf, start, m, prefixHashes[m], m >= 8 ? head : head & PieceTable.low(m),
                        m >= 16 ? next : m > 8 ? next & PieceTable.low(m - 8) : 0);
                if (id >= 0) {
                    break;
                }
                end--;
            }
            if (id < 0) {
                out.truncate(mark);
                out.add(unkId);
                return;
            }
            out.add(id);
            start = end;
        }
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    }

    private static char lowerAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    private static String lowerAscii(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.append(lowerAscii(s.charAt(i)));
        }
        return b.toString();
    }

    /**
     * Vocabulary pieces by their characters, open addressing, no String per lookup. A slot is
     * four adjacent longs, so a probe reads one cache line: the piece's hash, length and id (0 =
     * empty), its first 16 characters as bytes, and where the rest of a longer piece starts in
     * one shared char array. Only ASCII pieces are held (the fast path's texts are ASCII, so no
     * other piece can match); {@link #fits} is false when a piece is longer than 255 characters
     * or an id needs more than 24 bits, and then the fast path is not used.
     *
     * <p>Most lookups are misses (longest match first tries every shorter prefix of a word that is
     * not a piece), so a bit per hash in {@link #present} (128 KB: it stays in the L2 cache, where
     * the slots, 2 MB for BERT's vocabulary, do not) answers most of them without a probe.
     */
    private static final class PieceTable {
        private static final int SLOT = 4;
        private static final int PRESENT_BITS = 20;
        private final long[] present = new long[1 << (PRESENT_BITS - 6)];
        private final long[] slots;
        private char[] tails = new char[64];
        private int tailsUsed;
        private boolean fits = true;
        int maxLength;

        /** A table for at most {@code pieces} pieces: at least twice as many slots, so never full. */
        PieceTable(int pieces) {
            slots = new long[Math.max(1 << 10, Integer.highestOneBit(Math.max(1, pieces) * 2 - 1) * 2) * SLOT];
        }

        void put(String piece, int id) {
            int n = piece.length();
            for (int i = 0; i < n; i++) {
                if (piece.charAt(i) >= 128) {
                    return; // never matched by an ASCII text
                }
            }
            if (n == 0) {
                return; // a lookup is never empty
            }
            if (n > 255 || id < 0 || id >= 1 << 24) {
                fits = false;
                return;
            }
            char[] key = piece.toCharArray();
            int h = 0;
            for (char c : key) {
                h = 31 * h + c;
            }
            long head = pack(key, 0, Math.min(n, 8));
            long next = n > 8 ? pack(key, 8, Math.min(n - 8, 8)) : 0;
            int mask = slots.length / SLOT - 1;
            int slot = spread(h) & mask;
            long meta;
            while ((meta = slots[slot * SLOT]) != 0) {
                if (matches(slot, meta, metaKey(h, n), head, next, key, 0, n)) {
                    slots[slot * SLOT] = metaKey(h, n) | id;
                    return;
                }
                slot = (slot + 1) & mask;
            }
            int tail = -1;
            if (n > 16) {
                tail = tailsUsed;
                if (tailsUsed + n - 16 > tails.length) {
                    tails = Arrays.copyOf(tails, Math.max(tails.length * 2, tailsUsed + n));
                }
                piece.getChars(16, n, tails, tailsUsed);
                tailsUsed += n - 16;
            }
            int bit = presentBit(h, n);
            present[bit >>> 6] |= 1L << bit;
            int at = slot * SLOT;
            slots[at] = metaKey(h, n) | id;
            slots[at + 1] = head;
            slots[at + 2] = next;
            slots[at + 3] = tail;
            maxLength = Math.max(maxLength, n);
        }

        boolean fits() {
            return fits;
        }

        /**
         * The id of {@code buf[from, from + m)}, whose polynomial hash is {@code h} and whose first
         * 16 characters packed by {@link #pack} are {@code head} and {@code next}; -1 when absent.
         */
        int get(char[] buf, int from, int m, int h, long head, long next) {
            int bit = presentBit(h, m);
            if ((present[bit >>> 6] & 1L << bit) == 0) {
                return -1;
            }
            int mask = slots.length / SLOT - 1;
            int slot = spread(h) & mask;
            long want = metaKey(h, m);
            long meta;
            while ((meta = slots[slot * SLOT]) != 0) {
                if (matches(slot, meta, want, head, next, buf, from, m)) {
                    return (int) (meta & 0xFFFFFF);
                }
                slot = (slot + 1) & mask;
            }
            return -1;
        }

        private boolean matches(int slot, long meta, long want, long head, long next, char[] chars, int from, int m) {
            int at = slot * SLOT;
            if ((meta & ~0xFFFFFFL) != want || slots[at + 1] != head || slots[at + 2] != next) {
                return false;
            }
            if (m > 16) {
                int tail = (int) slots[at + 3];
                for (int i = 16; i < m; i++) {
                    if (tails[tail + i - 16] != chars[from + i]) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** The bit of {@link #present} for a piece of hash {@code h} and length {@code length}. */
        private static int presentBit(int h, int length) {
            return (h * 0x9E3779B9 + length * 0x85EBCA6B) >>> (32 - PRESENT_BITS);
        }

        /** Hash and length, the upper 40 bits of a slot's first long (its id is the lower 24). */
        private static long metaKey(int h, int length) {
            return (long) h << 32 | (long) length << 24;
        }

        /** {@code count} (at most 8) ASCII chars from {@code chars[from]} as bytes, the first lowest. */
        static long pack(char[] chars, int from, int count) {
            long w = 0;
            for (int i = 0; i < count; i++) {
                w |= (long) chars[from + i] << (8 * i);
            }
            return w;
        }

        /** The bytes of a packed word's first {@code m} (fewer than 8) chars. */
        static long low(int m) {
            return (1L << (8 * m)) - 1;
        }

        private static int spread(int h) {
            return h ^ (h >>> 16);
        }
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] a;
        private int n;

        IntList(int capacity) {
            a = new int[Math.max(4, capacity)];
        }

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        void addAll(int[] vs) {
            for (int v : vs) {
                add(v);
            }
        }

        int size() {
            return n;
        }

        void truncate(int size) {
            n = size;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }
    }
}
