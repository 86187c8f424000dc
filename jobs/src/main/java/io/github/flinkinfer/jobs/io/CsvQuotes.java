package io.github.flinkinfer.jobs.io;

/**
 * Follows one CSV record's bytes far enough to tell whether a newline is inside a quoted field
 * (RFC 4180, as Jackson's CSV parser reads it): a {@code "} opens a quoted field only at the
 * start of a field, {@code ""} inside one is an escaped quote. Bytes suffice because no byte of a
 * multi-byte UTF-8 character is {@code "} or {@code ,}. Whether the record is well-formed is left
 * to the parser, which reports it with the record's first byte's offset.
 */
final class CsvQuotes {
    private enum State { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED }

    private static final int QUOTED_BIT = 1 << State.QUOTED.ordinal();
    private static final int FIELD_START_BIT = 1 << State.FIELD_START.ordinal();
    private static final int UNQUOTED_BIT = 1 << State.UNQUOTED.ordinal();
    private static final int ALL = (1 << State.values().length) - 1;
    /** {@link Resync}'s next set of states, by set and byte class (quote, comma, other). */
    private static final int[][] NEXT = new int[ALL + 1][3];

    static {
        int[] bytes = {'"', ',', 'x'};
        for (int set = 0; set <= ALL; set++) {
            for (int c = 0; c < bytes.length; c++) {
                for (State s : State.values()) {
                    if ((set & (1 << s.ordinal())) != 0) {
                        NEXT[set][c] |= 1 << next(s, bytes[c]).ordinal();
                    }
                }
            }
        }
    }

    private State state = State.FIELD_START;

    /** Takes the record's next byte (not a record-ending newline). */
    void accept(int b) {
        state = next(state, b);
    }

    /** True while a newline here would be part of a quoted field's value. */
    boolean inQuotedField() {
        return state == State.QUOTED;
    }

    private static State next(State state, int b) {
        return switch (state) {
            case FIELD_START -> b == '"' ? State.QUOTED : b == ',' ? State.FIELD_START : State.UNQUOTED;
            case UNQUOTED -> b == ',' ? State.FIELD_START : State.UNQUOTED;
            case QUOTED -> b == '"' ? State.QUOTE_IN_QUOTED : State.QUOTED;
            // "" is an escaped quote; anything else closes the field (stray text after the
            // closing quote is the parser's to reject)
            case QUOTE_IN_QUOTED -> b == '"' ? State.QUOTED : b == ',' ? State.FIELD_START : State.UNQUOTED;
        };
    }

    /**
     * Finds where a record starts from a byte whose state is unknown (the first byte of a split):
     * it follows every state a reader of the file from its start could be in there, and the first
     * newline at which none of them is inside a quoted field ends a record whichever it was. That
     * newline depends only on the bytes from where the search began, so the split that ends there
     * and the split that starts there find the same one; one begun later never finds an earlier
     * one, since the states it follows include those of one begun earlier. Usually the first or
     * second newline; a quote that is never closed leaves none.
     */
    static final class Resync {
        private int states = ALL;

        /** Takes the next byte; true when it is a newline that ends a record in every state. */
        boolean accept(int b) {
            if (b == '\n') {
                if ((states & QUOTED_BIT) == 0) {
                    states = FIELD_START_BIT;
                    return true;
                }
                // in a quoted field the newline is its value's; any other state ends its record
                states = states == QUOTED_BIT ? QUOTED_BIT : QUOTED_BIT | FIELD_START_BIT;
                return false;
            }
            states = NEXT[states][b == '"' ? 0 : b == ',' ? 1 : 2];
            return false;
        }

        /**
         * Takes the bytes of {@code bytes[from, to)} before the next quote at once, while a state
         * inside a quoted field is followed: no newline before a quote can end the search then,
         * and the other states depend only on the last byte before it ({@code ,} or a newline:
         * a field starts; anything else: inside an unquoted one). Returns where {@link #accept}
         * goes on: the quote's index, {@code to} without one, or {@code from} when nothing was
         * taken. Keeps a file without quotes to one scan for {@code "}.
         */
        int skipToQuote(byte[] bytes, int from, int to) {
            if ((states & QUOTED_BIT) == 0) {
                return from;
            }
            int i = from;
            while (i < to && bytes[i] != '"') {
                i++;
            }
            if (i > from && states != QUOTED_BIT) {
                byte last = bytes[i - 1];
                states = QUOTED_BIT | (last == ',' || last == '\n' ? FIELD_START_BIT : UNQUOTED_BIT);
            }
            return i;
        }
    }
}
