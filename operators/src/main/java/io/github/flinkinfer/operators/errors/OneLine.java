package io.github.flinkinfer.operators.errors;

/**
 * A failure's cause as one line for a person on the console: the first line of its message (stores
 * and planners add request ids, XML or SQL below) without the exception class names that wrappers
 * put inside it. The whole chain stays with the exception for {@code --verbose}.
 */
public final class OneLine {
    private static final int MAX = 300;

    private OneLine() {}

    /** {@code failure}'s message in one line, at most {@value #MAX} characters. */
    public static String of(Throwable failure) {
        String message = failure.getMessage();
        String first = message == null || message.isBlank() ? failure.getClass().getSimpleName()
                : message.strip().lines().findFirst().orElse("");
        first = first.replaceAll("\\b(?:[a-z][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ", "");
        return first.length() > MAX ? first.substring(0, MAX) + "…" : first;
    }

    /** The innermost cause of {@code failure} (what went wrong, below the wrappers that report it). */
    public static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /**
     * A file system's failure on {@code path} in one line, without the path the store repeats
     * before it, plus where to give credentials when the store says they are missing.
     */
    public static String ofStoreFailure(Throwable failure, String path) {
        String scheme = path.contains("://") ? path.substring(0, path.indexOf("://")) : "file";
        String why = of(failure).replaceFirst("^" + java.util.regex.Pattern.quote(path) + "[^ ]*: ", "")
                .replaceFirst("^" + java.util.regex.Pattern.quote(scheme) + "a?://[^ ]*: ", "");
        return why + (why.contains("Credentials") ? "; give the store's credentials in the environment (e.g."
                + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) or config.yaml (docs/operations.md,"
                + " \"Running on S3\")" : "");
    }
}
