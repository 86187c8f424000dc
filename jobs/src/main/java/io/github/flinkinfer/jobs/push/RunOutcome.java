package io.github.flinkinfer.jobs.push;

import io.github.flinkinfer.jobs.report.AccountingException;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.workload.WorkloadContractException;
import java.util.Locale;

/** How a finished run's verdicts came out: the {@code outcome} tag of its pushed meters. */
public enum RunOutcome {
    /** Every verdict passed (and, from the driver or {@code --mark-success}, the marker is written). */
    SUCCEEDED,
    /** The quality gate's sample fell below its floor. */
    FAILED_QUALITY,
    /** A workload card's deadline or budget was missed with {@code --fail-on-missed-contract}. */
    FAILED_CONTRACT,
    /** read ≠ succeeded + failed + skipped + duplicates: inputs were lost or counted twice. */
    FAILED_ACCOUNTING,
    /** Anything else stopped the run after its summary (e.g. the marker could not be written). */
    FAILED;

    /** The outcome of a run whose verdicts threw {@code failure} (null: none did). */
    public static RunOutcome of(RunSummary summary, Throwable failure) {
        if (failure instanceof QualityGateException) {
            return FAILED_QUALITY;
        }
        if (failure instanceof WorkloadContractException) {
            return FAILED_CONTRACT;
        }
        if (failure instanceof AccountingException
                || failure == null && summary.reconciliation != null && !summary.reconciliation.ok()) {
            return FAILED_ACCOUNTING; // report without --mark-success judges no marker, but the counts still disagree
        }
        return failure == null ? SUCCEEDED : FAILED;
    }

    /** The tag value: {@code succeeded}, {@code failed_quality}, ... */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
