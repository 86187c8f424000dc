package io.github.flinkinfer.operators.ledger;

import io.github.flinkinfer.operators.errors.ErrorReason;
import java.util.Map;
import java.util.TreeMap;

/**
 * The five numbers every reader of a run shows (console summary, report, manifest, pushed
 * metrics), taken once from its ledger so they cannot disagree: {@code read = succeeded + failed
 * + skipped + duplicates} when the ledger reconciles. Duplicates are dropped by policy, not
 * failed: they are error rows (reason {@code duplicate_id}) but never in {@code failed}.
 *
 * @param read inputs read from every source
 * @param succeeded model inputs that became kept results (token windows on chunked runs)
 * @param failed error rows other than duplicates (inputs that failed, each once, with a reason)
 * @param skipped incremental runs: unchanged inputs whose earlier rows were carried over
 * @param duplicates inputs dropped as duplicate ids
 * @param failedByReason {@code failed} by {@code stage/reason}; sums to {@code failed}
 */
public record RunCounts(long read, long succeeded, long failed, long skipped, long duplicates,
        Map<String, Long> failedByReason) {

    /** The counts of {@code ledger}. */
    public static RunCounts of(RunLedger ledger) {
        Map<String, Long> byReason = new TreeMap<>(ledger.failedByReason);
        byReason.remove(ErrorReason.DUPLICATE_ID.qualified());
        return new RunCounts(ledger.read(), ledger.succeeded, ledger.failed(), ledger.skipped, ledger.duplicates,
                java.util.Collections.unmodifiableMap(byReason));
    }
}
