package io.github.flinkinfer.jobs.testutils;

import java.util.Map;

/**
 * A CSV file with quoted multi-line fields, {@code ""} quotes, CRLF endings in places and broken
 * records, with what a reader must make of it (shared by the unit test and the ITCase).
 */
public final class QuotedCsv {
    public static final String CONTENT = "id,text,lang\n"   // 1
            + "c1,\"A field holding\n"                       // 2
            + "two lines\",en\n"                             // 3
            + "c2,\"He said \"\"hi\"\", then left\",en\r\n"  // 4
            + "c3,plain text,en\n"                           // 5
            + "b1,\"first line\n"                            // 6  broken: text after the closing quote
            + "second \"line\" oops\",en\n"                  // 7
            + "c4,\"three\r\n"                               // 8
            + "lines with a, comma\n"                        // 9
            + "and \"\"quotes\"\"\",en\n"                    // 10
            + "b2-without-text\n"                            // 11 broken: no text column
            + "c5,\"\",en\n"                                 // 12 empty text
            + "c6,last good one,en\n"                        // 13
            + "b3,\"never closed,en\n"                       // 14 broken: the quote runs to the end
            + "c7,swallowed by b3,en\n";                     // 15

    /** Good records: id → text as parsed. */
    public static final Map<String, String> GOOD = Map.of(
            "c1", "A field holding\ntwo lines",
            "c2", "He said \"hi\", then left",
            "c3", "plain text",
            "c4", "three\r\nlines with a, comma\nand \"quotes\"",
            "c6", "last good one");

    /** Records that go to errors: first line ({@link #lineOf} their position) → reason. */
    public static final Map<Integer, String> ERRORS = Map.of(
            6, "malformed_csv",
            11, "malformed_csv",
            12, "empty_text",
            14, "malformed_csv");

    private QuotedCsv() {}

    /** The 1-based line of {@link #CONTENT} that holds byte {@code offset} (positions are offsets). */
    public static int lineAt(long offset) {
        byte[] bytes = CONTENT.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int line = 1;
        for (int i = 0; i < offset; i++) {
            line += bytes[i] == '\n' ? 1 : 0;
        }
        return line;
    }

    /** The line of a position {@code <path>@<offset>} in {@link #CONTENT}. */
    public static int lineOf(String position) {
        return lineAt(Long.parseLong(position.substring(position.lastIndexOf('@') + 1)));
    }
}
