package io.github.flinkinfer.operators.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdict that nothing was lost or counted twice: every input read is a duplicate, skipped,
 * failed before the model or passed to it (a duplicate dropped after inference counts as a
 * duplicate only); every model input succeeded, failed or was a duplicate's; every kept success
 * (plus carried-over and pooled rows) was written. A run whose ledger does not reconcile gets no
 * success marker.
 *
 * @param ok whether every equation holds
 * @param statement the headline, e.g. {@code read 2,000 = succeeded 1,990 + failed 8 + skipped 0 + duplicates 2}
 * @param mismatches each equation that does not hold, with its counts
 */
public record Reconciliation(boolean ok, String statement, List<String> mismatches) {

    static Reconciliation of(RunLedger l) {
        List<String> bad = new ArrayList<>();
        long read = l.read();
        long beforeModel = l.failedBeforeModel();
        check(bad, "read = parsed + failed to parse", read, l.parsed + l.failedToParse());
        // a duplicate dropped after inference is counted once as a duplicate, not as passed to the model
        check(bad, "parsed = duplicates + skipped + failed before the model + passed to the model",
                l.parsed, l.duplicates + l.skipped + (beforeModel - l.failedToParse()) + l.toModelDocs
                        - l.duplicatesInferred);
        check(bad, "model inputs = succeeded + failed + duplicates inferred", l.items,
                l.succeeded + l.failedItems() + l.duplicatesInferred);
        if (l.written != null) {
            check(bad, "rows written = succeeded + carried/pooled rows", l.written, l.succeeded + l.extraRows);
        }
        boolean chunked = l.items != l.toModelDocs;
        String statement = chunked
                ? f("read %,d = to the model %,d + failed before it %,d + skipped %,d + duplicates %,d;"
                        + " %,d windows = succeeded %,d + failed %,d (%,d documents with a failed window)",
                        read, l.toModelDocs, beforeModel, l.skipped, l.duplicates, l.items, l.succeeded,
                        l.failedItems(), l.documentsWithFailedWindows())
                : f("read %,d = succeeded %,d + failed %,d + skipped %,d + duplicates %,d", read,
                        l.succeeded, l.failed(), l.skipped, l.duplicates)
                        + (l.duplicatesInferred > 0 ? f(" (%,d duplicates inferred, then dropped)", l.duplicatesInferred) : "");
        return new Reconciliation(bad.isEmpty(), statement, List.copyOf(bad));
    }

    private static void check(List<String> bad, String equation, long left, long right) {
        if (left != right) {
            bad.add(f("%s: %,d ≠ %,d (%+,d)", equation, left, right, left - right));
        }
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
