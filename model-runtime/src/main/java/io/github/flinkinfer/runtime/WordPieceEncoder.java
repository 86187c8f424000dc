package io.github.flinkinfer.runtime;

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
        PieceTable starts = new PieceTable();
        PieceTable continuations = new PieceTable();
        for (Iterator<Map.Entry<String, JsonNode>> it = model.path("vocab").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String piece = e.getKey();
            if (!prefix.isEmpty() && piece.startsWith(prefix)) {
                continuations.put(piece.substring(prefix.length()), e.getValue().asInt());
            }
            starts.put(piece, e.getValue().asInt()); // a word's first piece is looked up as it is
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
            int id = -1;
            int end = start + longest;
            while (end > start) {
                id = table.get(buf, start, end, prefixHashes[end - start]);
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

    /** Vocabulary pieces by their characters, open addressing, no String per lookup. */
    private static final class PieceTable {
        private char[][] keys = new char[1 << 10][];
        private int[] hashes = new int[1 << 10];
        private int[] values = new int[1 << 10];
        private int size;
        int maxLength;

        void put(String piece, int id) {
            if (size * 2 >= keys.length) {
                grow();
            }
            char[] key = piece.toCharArray();
            int h = 0;
            for (char c : key) {
                h = 31 * h + c;
            }
            int slot = spread(h) & (keys.length - 1);
            while (keys[slot] != null) {
                if (Arrays.equals(keys[slot], key)) {
                    values[slot] = id;
                    return;
                }
                slot = (slot + 1) & (keys.length - 1);
            }
            keys[slot] = key;
            hashes[slot] = h;
            values[slot] = id;
            size++;
            maxLength = Math.max(maxLength, key.length);
        }

        /** The id of {@code buf[from, to)}, whose polynomial hash is {@code h}; -1 when absent. */
        int get(char[] buf, int from, int to, int h) {
            int slot = spread(h) & (keys.length - 1);
            char[] key;
            while ((key = keys[slot]) != null) {
                if (hashes[slot] == h && key.length == to - from && equal(key, buf, from)) {
                    return values[slot];
                }
                slot = (slot + 1) & (keys.length - 1);
            }
            return -1;
        }

        private static boolean equal(char[] key, char[] buf, int from) {
            for (int i = 0; i < key.length; i++) {
                if (key[i] != buf[from + i]) {
                    return false;
                }
            }
            return true;
        }

        private void grow() {
            char[][] oldKeys = keys;
            int[] oldValues = values;
            keys = new char[oldKeys.length * 2][];
            hashes = new int[oldKeys.length * 2];
            values = new int[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != null) {
                    put(new String(oldKeys[i]), oldValues[i]);
                }
            }
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
