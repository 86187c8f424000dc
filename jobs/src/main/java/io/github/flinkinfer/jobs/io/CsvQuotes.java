package io.github.flinkinfer.jobs.io;

/**
 * Follows one CSV record's bytes far enough to tell whether a newline is inside a quoted field
 * (RFC 4180, as Jackson's CSV parser reads it): a {@code "} opens a quoted field only at the
 * start of a field, {@code ""} inside one is an escaped quote. Bytes suffice because no byte of a
 * multi-byte UTF-8 character is {@code "} or {@code ,}. Whether the record is well-formed is left
 * to the parser, which reports it with the record's first line.
 */
final class CsvQuotes {
    private enum State { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED }

    private State state = State.FIELD_START;

    /** Takes the record's next byte (not a record-ending newline). */
    void accept(int b) {
        state = switch (state) {
            case FIELD_START -> b == '"' ? State.QUOTED : b == ',' ? State.FIELD_START : State.UNQUOTED;
            case UNQUOTED -> b == ',' ? State.FIELD_START : State.UNQUOTED;
            case QUOTED -> b == '"' ? State.QUOTE_IN_QUOTED : State.QUOTED;
            // "" is an escaped quote; anything else closes the field (stray text after the
            // closing quote is the parser's to reject)
            case QUOTE_IN_QUOTED -> b == '"' ? State.QUOTED : b == ',' ? State.FIELD_START : State.UNQUOTED;
        };
    }

    /** True while a newline here would be part of a quoted field's value. */
    boolean inQuotedField() {
        return state == State.QUOTED;
    }
}
