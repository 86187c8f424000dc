package io.github.flinkinfer.jobs.sql;

import io.github.flinkinfer.operators.errors.OneLine;

/**
 * A statement of a SQL script that the planner refused or whose job failed: the user's to fix, so
 * the CLI prints it as one {@code error:} line naming the statement and the cause (the trace with
 * {@code --verbose}), as it does for every other command.
 */
public final class SqlStatementException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private SqlStatementException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Statement {@code number} (1-based) did not plan: the planner's own first line says where. */
    static SqlStatementException refused(int number, String statement, RuntimeException planning) {
        return new SqlStatementException("SQL statement " + number + " (" + SqlRunner.firstLine(statement)
                + ") is not valid: " + withRootCause(planning), planning);
    }

    /** The planner's first line, and its innermost cause's where that adds to it (a missing format). */
    private static String withRootCause(RuntimeException planning) {
        String top = OneLine.of(planning);
        String root = OneLine.of(OneLine.rootCause(planning));
        return top.contains(root) ? top : top + " " + root;
    }

    /** Statement {@code number}'s job failed: its innermost cause says why. */
    static SqlStatementException failed(int number, String statement, Throwable job) {
        return new SqlStatementException("SQL statement " + number + " (" + SqlRunner.firstLine(statement)
                + ") failed: " + OneLine.of(OneLine.rootCause(job)), job);
    }
}
