package io.github.flinkinfer.jobs.report;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Times the driver's work after a job (clean-up, ledger, summary, report), the bytes its thread
 * allocated meanwhile (what reading every record would show at once) and the heap's peak (the sum
 * of the heap pools' peaks since the start, an upper bound; the pools' peaks are reset then). None
 * may grow with the corpus, which the scale benchmark checks.
 */
public final class DriverWork {
    /** Seconds from the job's end to the report written, and the heap's peak meanwhile. */
    public record Measured(double seconds, long allocatedBytes, long peakHeapBytes) {}

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final long startNanos = System.nanoTime();
    private final long startAllocated = THREADS.getCurrentThreadAllocatedBytes();

    private DriverWork() {}

    public static DriverWork start() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        return new DriverWork();
    }

    public Measured stop() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return new Measured((System.nanoTime() - startNanos) / 1e9,
                THREADS.getCurrentThreadAllocatedBytes() - startAllocated, peak);
    }
}
