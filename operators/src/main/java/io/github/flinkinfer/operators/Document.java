package io.github.flinkinfer.operators;

import io.github.flinkinfer.operators.errors.ErrorReason;

/**
 * One input text with its id and where it came from (file:line, or topic-partition@offset).
 * A Flink POJO: public fields and a no-arg constructor keep it off Kryo.
 */
public class Document {
    public String id;
    public String text;
    public String source;

    public Document() {}

    public Document(String id, String text, String source) {
        this.id = id;
        this.text = text;
        this.source = source;
    }

    /**
     * The text rules of every front door (the job's record parsers, the SQL provider): why {@code
     * text} cannot be a document's ({@link ErrorReason#EMPTY_TEXT} when empty or whitespace, {@link
     * ErrorReason#NUL_CHARACTER}), or null when it can. A null text is the caller's to name (a
     * missing field, an SQL NULL).
     */
    public static ErrorReason problemWith(String text) {
        if (text.isBlank()) {
            return ErrorReason.EMPTY_TEXT;
        }
        return text.indexOf('\0') >= 0 ? ErrorReason.NUL_CHARACTER : null;
    }

    @Override
    public String toString() {
        // never the text: ids, lengths and positions only
        return "Document{id=" + id + ", source=" + source + ", chars="
                + (text == null ? -1 : text.length()) + "}";
    }
}
