package io.github.flinkinfer.operators.ledger;

import io.github.flinkinfer.operators.errors.ErrorReason;
import java.io.Serializable;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How many failed inputs a run may have: an absolute cap ({@code maxErrors}, -1 = none) and a rate
 * ({@code maxErrorRate} of the inputs read, 1.0 = none; the CLI's default is 0.01). The rate is
 * judged once {@code minRecordsForRate} inputs were read (so three bad lines at the start do not
 * stop a run) and again at end of input, over the run's {@link RunLedger}. Duplicates dropped by
 * policy are not failures.
 */
public final class ErrorBudget implements Serializable {
    private static final long serialVersionUID = 2L;

    private final long maxErrors;
    private final double maxErrorRate;
    private final long minRecordsForRate;

    public ErrorBudget(long maxErrors, double maxErrorRate, long minRecordsForRate) {
        if (maxErrorRate < 0 || maxErrorRate > 1) {
            throw new IllegalArgumentException("max error rate must be within [0, 1]");
        }
        this.maxErrors = maxErrors;
        this.maxErrorRate = maxErrorRate;
        this.minRecordsForRate = minRecordsForRate;
    }

    public boolean unlimited() {
        return maxErrors < 0 && maxErrorRate >= 1.0;
    }

    /** A message naming the breached limit and the reasons, or empty while within budget. */
    public Optional<String> violation(RunLedger ledger, boolean endOfInput) {
        long errors = ledger.failed();
        long read = ledger.read();
        if (maxErrors >= 0 && errors > maxErrors) {
            return Optional.of("Error budget exceeded: " + errors + " failed inputs > --max-errors "
                    + maxErrors + " (" + read + " read). Reasons: " + reasons(ledger));
        }
        boolean judge = endOfInput ? read > 0 : read >= minRecordsForRate;
        if (judge && (double) errors / read > maxErrorRate) {
            return Optional.of(String.format(java.util.Locale.ROOT,
                    "Error budget exceeded: error rate %.4f (%d of %d inputs) > --max-error-rate %s."
                            + " Reasons: %s", (double) errors / read, errors, read,
                    maxErrorRate, reasons(ledger)));
        }
        return Optional.empty();
    }

    private static String reasons(RunLedger ledger) {
        return ledger.failedByReason.entrySet().stream()
                .filter(e -> !e.getKey().endsWith("/" + ErrorReason.DUPLICATE_ID.code()))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
