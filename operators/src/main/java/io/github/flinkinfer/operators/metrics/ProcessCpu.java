package io.github.flinkinfer.operators.metrics;

import java.lang.management.ManagementFactory;

/**
 * The CPU time of this JVM (the TaskManager's process), its name ({@code pid@host}) and its
 * cores, sampled at each batch's end: with them the run's bound line sees a TaskManager whose
 * cores are busy with work no timed stage covers (reading, parsing, exchanges, the model call's
 * host side), which the stages' own timers miss.
 */
public final class ProcessCpu {
    private static final java.lang.management.OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
    /** This JVM, as {@code RuntimeMXBean.getName()} has it: {@code pid@host}. */
    public static final String PROCESS = ManagementFactory.getRuntimeMXBean().getName();

    private ProcessCpu() {}

    /** CPU milliseconds this process has used so far, all threads; -1 where the JVM cannot tell. */
    public static long millis() {
        if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? -1 : nanos / 1_000_000;
        }
        return -1;
    }

    /** The cores this JVM may use (a container's CPU limit, rounded up). */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }
}
