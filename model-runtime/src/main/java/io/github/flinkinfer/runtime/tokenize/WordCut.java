package io.github.flinkinfer.runtime.tokenize;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * Cuts a long text at a word end before it is tokenized, so a 20,000-token line is not tokenized
 * whole to keep its first 128 tokens. Sound only for tokenizers whose normalizer works character
 * by character and whose pre-tokenizer splits at whitespace (BERT's, {@code Whitespace}): there the
 * tokens of a head that ends at a word end are the whole text's first tokens, and the whole text
 * has at least as many. {@link #sound} is false for any other {@code tokenizer.json}
 * (BPE byte-level, SentencePiece, regex replacements, an added token with a space in it), which
 * is then always tokenized whole.
 *
 * <p>The head is at least {@link #CHARS_PER_TOKEN} characters per kept token; {@link
 * TextTokenizer} uses it only when it yields more tokens than the max length, else tokenizes the
 * whole text (a text of unusually long tokens costs one extra, shorter, tokenization).
 */
final class WordCut {
    /** Characters of head per token of max length: English WordPiece averages about 4.5. */
    static final int CHARS_PER_TOKEN = 8;

    private static final Set<String> WORD_PRE_TOKENIZERS =
            Set.of("BertPreTokenizer", "Whitespace", "WhitespaceSplit");
    private static final Set<String> CHAR_NORMALIZERS =
            Set.of("BertNormalizer", "Lowercase", "NFC", "NFD", "NFKC", "NFKD", "StripAccents");

    private final int minChars;

    WordCut(int maxLength) {
        this.minChars = Math.max(1, maxLength) * CHARS_PER_TOKEN;
    }

    /** Whether cutting is sound for this {@code tokenizer.json}: word pre-tokenizers, character normalizers. */
    static boolean sound(JsonNode root) {
        return all(root.path("pre_tokenizer"), WORD_PRE_TOKENIZERS, "pretokenizers", false)
                && all(root.path("normalizer"), CHAR_NORMALIZERS, "normalizers", true);
    }

    /** A component (or a {@code Sequence} of them) of the known kinds; absent is {@code absentOk}. */
    private static boolean all(JsonNode node, Set<String> kinds, String members, boolean absentOk) {
        if (node.isMissingNode() || node.isNull()) {
            return absentOk;
        }
        String type = node.path("type").asText();
        if (type.equals("Sequence")) {
            JsonNode list = node.path(members);
            if (!list.isArray() || list.isEmpty()) {
                return false;
            }
            for (JsonNode member : list) {
                if (!all(member, kinds, members, false)) {
                    return false;
                }
            }
            return true;
        }
        return kinds.contains(type);
    }

    /**
     * The text up to its first word end at or after {@link #CHARS_PER_TOKEN} characters per token
     * (a word end: a character that is not a space, tab or line break, then one that is), or null
     * when the text is shorter or has no such word end: then it is tokenized whole.
     */
    String head(String text) {
        for (int i = minChars; i < text.length(); i++) {
            if (isSpace(text.charAt(i)) && !isSpace(text.charAt(i - 1))) {
                return text.substring(0, i);
            }
        }
        return null;
    }

    /** Whitespace for every supported normalizer and pre-tokenizer (not removed, not joined). */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
