package io.github.flinkinfer.operators.errors;

import java.io.FileNotFoundException;
import java.io.IOException;

/**
 * An input (a corpus file, object or directory) that cannot be opened or listed: missing, denied,
 * or on a store without credentials. No restart reads it, so the driver's pre-flight and a
 * reading subtask ({@link NonRecoverableLoadException#guard}) both end the run with this one
 * line naming the input and the cause.
 */
public final class UnreadableInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** {@code input} could not be opened or listed, for {@code cause}. */
    public UnreadableInputException(String input, IOException cause) {
        super(message(input, cause), portable(cause));
    }

    /**
     * The cause as a plain {@link IOException} with its class, message and stack trace: a store's
     * own exception classes live in its plugin's class loader, which the driver may not see when
     * the failure comes back from a subtask, and this exception must reach it whole.
     */
    private static IOException portable(IOException cause) {
        IOException copy = new IOException(cause.toString());
        copy.setStackTrace(cause.getStackTrace());
        return copy;
    }

    private static String message(String input, IOException cause) {
        if (denied(cause)) {
            return "Input " + input + " cannot be read: permission denied for user "
                    + System.getProperty("user.name") + "; grant it read permission (chmod u+r, or a+r) or"
                    + " run as a user who has it";
        }
        if (cause instanceof FileNotFoundException) {
            return "Input " + input + " does not exist";
        }
        return "Input " + input + " cannot be read: " + OneLine.ofStoreFailure(cause, input);
    }

    /** A local file the OS refused ({@code FileInputStream} says so only in its message). */
    private static boolean denied(IOException cause) {
        return cause instanceof FileNotFoundException && cause.getMessage() != null
                && cause.getMessage().endsWith("(Permission denied)");
    }
}
