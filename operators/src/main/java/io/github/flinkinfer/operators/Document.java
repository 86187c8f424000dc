package io.github.flinkinfer.operators;

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

    @Override
    public String toString() {
        // never the text: ids, lengths and positions only
        return "Document{id=" + id + ", source=" + source + ", chars="
                + (text == null ? -1 : text.length()) + "}";
    }
}
