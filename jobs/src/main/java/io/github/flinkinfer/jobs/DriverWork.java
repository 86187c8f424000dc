package io.github.flinkinfer.jobs;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Times the driver's work after a job (clean-up, ledger, summary, report) and the peak heap of its
 * JVM meanwhile: the heap pools' peaks are reset at the start, so the peak is this phase's own.
 * It must not grow with the corpus, which the scale benchmark checks.
 */
final class DriverWork {
    /** Seconds from the job's end to the report written, and the heap's peak meanwhile. */
    record Measured(double seconds, long peakHeapBytes) {}

    private final long startNanos = System.nanoTime();

    private DriverWork() {}

    static DriverWork start() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        return new DriverWork();
    }

    Measured stop() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return new Measured((System.nanoTime() - startNanos) / 1e9, peak);
    }
}
