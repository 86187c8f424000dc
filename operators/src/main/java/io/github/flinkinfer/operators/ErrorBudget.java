package io.github.flinkinfer.operators;

import java.io.Serializable;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * How many failed inputs a run may have before it is stopped: an absolute cap ({@code
 * maxErrors}, -1 = none) and a rate ({@code maxErrorRate} of processed inputs, 1.0 = none). The
 * rate is judged once {@code minRecordsForRate} inputs were processed (so three bad lines at the
 * start do not stop a run) and again at end of input. Counts job-wide when fed by one subtask.
 */
public final class ErrorBudget implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long maxErrors;
    private final double maxErrorRate;
    private final long minRecordsForRate;
    private final Map<String, Long> errorsByReason = new TreeMap<>();
    private long errors;
    private long processed;

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

    /** One failed input; {@code alsoProcessed} when no batch metrics row will count it. */
    public void onError(String reason, boolean alsoProcessed) {
        errors++;
        errorsByReason.merge(reason, 1L, Long::sum);
        if (alsoProcessed) {
            processed++;
        }
    }

    public void onProcessed(long items) {
        processed += items;
    }

    /** A message naming the breached limit and the reasons, or empty while within budget. */
    public Optional<String> violation(boolean endOfInput) {
        if (maxErrors >= 0 && errors > maxErrors) {
            return Optional.of("Error budget exceeded: " + errors + " failed inputs > --max-errors "
                    + maxErrors + " (" + processed + " processed). Reasons: " + reasons());
        }
        boolean judge = endOfInput ? processed > 0 : processed >= minRecordsForRate;
        if (judge && (double) errors / processed > maxErrorRate) {
            return Optional.of(String.format(java.util.Locale.ROOT,
                    "Error budget exceeded: error rate %.4f (%d of %d inputs) > --max-error-rate %s."
                            + " Reasons: %s", (double) errors / processed, errors, processed,
                    maxErrorRate, reasons()));
        }
        return Optional.empty();
    }

    private String reasons() {
        return errorsByReason.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
