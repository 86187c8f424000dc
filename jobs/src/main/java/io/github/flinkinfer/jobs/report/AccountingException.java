package io.github.flinkinfer.jobs.report;

/** A finished run whose ledger does not reconcile: some input was lost or counted twice. */
public final class AccountingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AccountingException(String message) {
        super(message);
    }
}
