package io.github.flinkinfer.operators.errors;

import io.github.flinkinfer.runtime.DeviceUnavailableException;
import io.github.flinkinfer.runtime.card.ModelCardException;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * A model or tokenizer load in a subtask that failed for a reason no restart heals (a file
 * failing its sha256 check, a device that is not there, a card that cannot be used), or an input
 * file a reader cannot open ({@link UnreadableInputException}), so Flink fails the job at once
 * instead of reloading and re-hashing the model (or re-listing the corpus) once per restart attempt.
 * A {@link SuppressRestartsException} (Flink's failover classifies it as a non-recoverable
 * error, wherever it is in the failure's cause chain) that carries the original as its cause
 * and shows the original's message, for the exception history and the driver ({@link #originalIn}).
 *
 * <pre>{@code
 * runtime = NonRecoverableLoadException.guard(() -> factory.open(device));
 * }</pre>
 */
public final class NonRecoverableLoadException extends SuppressRestartsException {
    private static final long serialVersionUID = 1L;

    private NonRecoverableLoadException(RuntimeException original) {
        super(original);
    }

    /**
     * Runs {@code load} and returns what it loaded; a failure no restart heals is rethrown as
     * this exception, any other as it was (a restart may get past it).
     */
    public static <T> T guard(Supplier<T> load) {
        try {
            return load.get();
        } catch (RuntimeException e) {
            throw cannotHeal(e) ? new NonRecoverableLoadException(e) : e;
        }
    }

    /**
     * Whether {@code failure} comes back on every attempt: a missing device, an unusable card, or
     * a model file that is missing or not the one its card names, an input file that cannot be
     * opened (the store's client has already retried what it deems transient). A model file that
     * could not be read or copied (its cause an {@link IOException}: an object store's hiccup, a
     * full disk) may be read on the next attempt and keeps Flink's restarts.
     */
    static boolean cannotHeal(RuntimeException failure) {
        return failure instanceof DeviceUnavailableException
                || failure instanceof UnreadableInputException
                || failure instanceof ModelCardException
                || (failure instanceof ModelIntegrityException && !(failure.getCause() instanceof IOException));
    }

    /**
     * The failed load's own exception when {@code jobFailure} (what a job's execution threw on
     * the driver) was caused by one, for the driver to report as it reports its own checks;
     * empty otherwise.
     */
    public static Optional<RuntimeException> originalIn(Throwable jobFailure) {
        for (Throwable c = jobFailure; c != null; c = c.getCause()) {
            if (c instanceof NonRecoverableLoadException load) {
                return Optional.of((RuntimeException) load.getCause());
            }
        }
        return Optional.empty();
    }

    /** The original's message: it names the file, the device or the card. */
    @Override
    public String getMessage() {
        return getCause().getMessage();
    }
}
