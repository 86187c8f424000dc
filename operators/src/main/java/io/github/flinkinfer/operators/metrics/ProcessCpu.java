package io.github.flinkinfer.operators.metrics;

import java.lang.management.ManagementFactory;

/**
 * The CPU time of this JVM (the TaskManager's process), its name ({@code pid@host}) and its
 * cores, sampled at each batch's end: with them the run's bound line sees a TaskManager whose
 * cores are busy with work no timed stage covers (reading, parsing, exchanges, the model call's
 * host side), which the stages' own timers miss.
 *
 * <p>Reading the process's CPU time is a system call that sums over every thread (about 20-50 µs
 * in a TaskManager's JVM): taken at each batch it was 4% of the inference thread's time with the
 * benchmark fixture model. So the value is read at most every {@link #REFRESH_NANOS} per JVM and
 * the batches between share it; over a bound line's window of seconds that moves the CPU share by
 * under 1%.
 */
public final class ProcessCpu {
    private static final java.lang.management.OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
    /** This JVM, as {@code RuntimeMXBean.getName()} has it: {@code pid@host}. */
    public static final String PROCESS = ManagementFactory.getRuntimeMXBean().getName();
    /** How old a reading {@link #millis()} may return. */
    static final long REFRESH_NANOS = 50_000_000L;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** The last reading and when it was taken; racing threads at worst both read. */
    private static volatile long[] last = {Long.MIN_VALUE, -1};

    private ProcessCpu() {}

    /**
     * CPU milliseconds this process has used so far, all threads, as read at most {@link
     * #REFRESH_NANOS} ago; -1 where the JVM cannot tell.
     */
    public static long millis() {
        return millis(System.nanoTime());
    }

    /** {@link #millis()} at {@code now} ({@code System.nanoTime()}). */
    static long millis(long now) {
        long[] l = last;
        if (l[0] != Long.MIN_VALUE && now - l[0] < REFRESH_NANOS) {
            return l[1];
        }
        long ms = read();
        last = new long[] {now, ms};
        return ms;
    }

    private static long read() {
        if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? -1 : nanos / 1_000_000;
        }
        return -1;
    }

    /** The cores this JVM may use (a container's CPU limit, rounded up), read once. */
    public static int cores() {
        return CORES;
    }
}
