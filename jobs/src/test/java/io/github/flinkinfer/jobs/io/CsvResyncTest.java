package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CsvQuotes.Resync} finds a newline that ends a record in a reader's parse from the file's
 * start, whatever that parse's state where the search began, and its skip to the next quote
 * changes nothing it finds.
 */
class CsvResyncTest {
    private static final byte[] ALPHABET = {'"', ',', '\n', '\r', 'a', 'b'};

    @Test
    void theNewlineFoundEndsARecordInTheParseFromTheStartAndSkippingToQuotesFindsTheSame() {
        Random random = new Random(5);
        int found = 0;
        for (int round = 0; round < 2_000; round++) {
            byte[] bytes = new byte[1 + random.nextInt(200)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = ALPHABET[random.nextInt(random.nextBoolean() ? ALPHABET.length : 3)];
            }
            boolean[] recordEnds = recordEnds(bytes);
            for (int from = 0; from < bytes.length; from++) {
                int byByte = byByte(bytes, from);
                assertThat(skipping(bytes, from)).as("round %d from %d", round, from).isEqualTo(byByte);
                if (byByte >= 0) {
                    assertThat(recordEnds[byByte]).as("round %d from %d: %d ends a record", round, from, byByte).isTrue();
                    found++;
                }
            }
        }
        assertThat(found).isGreaterThan(10_000);
    }

    @Test
    void withoutAQuoteNoNewlineCanBeTrusted() {
        byte[] bytes = "a,b\nc,d\ne,f\n".getBytes(StandardCharsets.UTF_8);
        assertThat(byByte(bytes, 1)).isEqualTo(-1);
        assertThat(skipping(bytes, 1)).isEqualTo(-1);
        byte[] quoted = "a,b\nc,\"d\"\ne,f\n".getBytes(StandardCharsets.UTF_8);
        assertThat(byByte(quoted, 1)).as("the newline after the quoted field").isEqualTo(9);
    }

    /** Which newlines end a record when the bytes are read from the start, as {@link LineFormat} does. */
    private static boolean[] recordEnds(byte[] bytes) {
        boolean[] ends = new boolean[bytes.length];
        CsvQuotes quotes = new CsvQuotes();
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n' && !quotes.inQuotedField()) {
                ends[i] = true;
                quotes = new CsvQuotes();
            } else if (bytes[i] != '\n') {
                quotes.accept(bytes[i]);
            }
        }
        return ends;
    }

    private static int byByte(byte[] bytes, int from) {
        CsvQuotes.Resync resync = new CsvQuotes.Resync();
        for (int i = from; i < bytes.length; i++) {
            if (resync.accept(bytes[i] & 0xFF)) {
                return i;
            }
        }
        return -1;
    }

    private static int skipping(byte[] bytes, int from) {
        CsvQuotes.Resync resync = new CsvQuotes.Resync();
        for (int i = resync.skipToQuote(bytes, from, bytes.length); i < bytes.length;
                i = resync.skipToQuote(bytes, i + 1, bytes.length)) {
            if (resync.accept(bytes[i] & 0xFF)) {
                return i;
            }
        }
        return -1;
    }
}
