package io.github.flinkinfer.runtime;

import java.io.Serializable;
import java.util.Locale;

/**
 * Where a model runs: {@code cpu}, {@code cuda} / {@code cuda:N} (fail if CUDA cannot be used),
 * or {@code auto} (CUDA when available, else CPU with one log line).
 */
public record Device(Kind kind, int index) implements Serializable {

    /** The device families the runtime knows. */
    public enum Kind {
        CPU,
        CUDA,
        AUTO
    }

    public static final Device CPU = new Device(Kind.CPU, 0);

    public static Device parse(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("cpu")) {
            return CPU;
        }
        if (s.equals("auto")) {
            return new Device(Kind.AUTO, 0);
        }
        if (s.equals("cuda")) {
            return new Device(Kind.CUDA, 0);
        }
        if (s.startsWith("cuda:")) {
            try {
                int index = Integer.parseInt(s.substring(5));
                if (index >= 0) {
                    return new Device(Kind.CUDA, index);
                }
            } catch (NumberFormatException ignored) {
                // fall through to the error below
            }
        }
        throw new IllegalArgumentException(
                "Unknown device '" + spec + "': use cpu, auto, cuda or cuda:N");
    }

    /** The same kind on another GPU index (used when a TaskManager reports its GPUs). */
    public Device withIndex(int gpuIndex) {
        return new Device(kind, gpuIndex);
    }

    /**
     * {@code cpu}, {@code cuda:N} or {@code auto:N}: the GPU index is printed for {@code auto}
     * too, so metrics and logs show which GPU a subtask was placed on before any fallback.
     */
    @Override
    public String toString() {
        return kind == Kind.CPU ? "cpu" : kind.name().toLowerCase(Locale.ROOT) + ":" + index;
    }
}
