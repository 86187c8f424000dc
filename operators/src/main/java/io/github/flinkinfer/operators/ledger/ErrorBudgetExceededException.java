package io.github.flinkinfer.operators.ledger;

/** The run had more failed inputs than its error budget allows; the message lists the reasons. */
public class ErrorBudgetExceededException extends RuntimeException {
    public ErrorBudgetExceededException(String message) {
        super(message);
    }
}
