package io.github.flinkinfer.runtime;

import java.util.Locale;

/**
 * A batch could not be run. {@link #outOfMemory()} tells the caller that splitting the batch may
 * help; any other failure is bisected to find the poison item.
 */
public class InferenceException extends RuntimeException {
    private final boolean outOfMemory;

    public InferenceException(String message, boolean outOfMemory, Throwable cause) {
        super(message, cause);
        this.outOfMemory = outOfMemory;
    }

    public boolean outOfMemory() {
        return outOfMemory;
    }

    /** Wraps a runtime failure, recognising allocation failures by ORT's messages. */
    public static InferenceException from(Throwable t) {
        if (t instanceof InferenceException ie) {
            return ie;
        }
        String msg = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        boolean oom =
                t instanceof OutOfMemoryError
                        || msg.contains("failed to allocate")
                        || msg.contains("bad_alloc")
                        || msg.contains("out of memory")
                        || msg.contains("cudaerrormemoryallocation");
        return new InferenceException(
                (oom ? "allocation failure: " : "inference failed: ") + t.getMessage(), oom, t);
    }
}
