package io.github.flinkinfer.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one contender run measured. Timer: started after model load and warm-up, stopped after the last output. */
final class Stats {
    long items;
    long realTokens;
    long paddedTokens;
    double usefulFlops;
    double executedFlops;
    double seconds;
    /** Flink only: env.execute() wall time (cluster start and model load included). */
    double e2eSeconds;
    /** Process CPU seconds (all threads, ONNX Runtime's native ones included) over {@link #cpuWindowSeconds}. */
    double cpuSeconds;
    /** The wall window {@link #cpuSeconds} was taken over (the timer's, unless set otherwise). */
    double cpuWindowSeconds;
    private long cpuStartNanos;
    /** The timed window in wall-clock time, so profiles can leave start-up and shutdown out. */
    long windowStartMillis;
    long windowEndMillis;
    final List<Double> batchMillis = new ArrayList<>();

    /** Starts the timer and the process-CPU counter; returns the start time for {@link #stop}. */
    long start() {
        cpuStartNanos = processCpuNanos();
        windowStartMillis = System.currentTimeMillis();
        return System.nanoTime();
    }

    /** Stops both: {@link #seconds} and {@link #cpuSeconds} cover the same window. */
    void stop(long startNanos) {
        seconds = (System.nanoTime() - startNanos) / 1e9;
        cpuWindowSeconds = seconds;
        cpuSeconds = (processCpuNanos() - cpuStartNanos) / 1e9;
        windowEndMillis = System.currentTimeMillis();
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
    final Map<String, Object> extra = new LinkedHashMap<>();

    synchronized void batch(int rows, long real, int paddedLen, double useful, double executed, double millis) {
        items += rows;
        realTokens += real;
        paddedTokens += (long) rows * paddedLen;
        usefulFlops += useful;
        executedFlops += executed;
        batchMillis.add(millis);
    }

    Map<String, Object> toMap(String contender) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("contender", contender);
        m.put("items", items);
        m.put("seconds", seconds);
        if (e2eSeconds > 0) {
            m.put("e2eSeconds", e2eSeconds);
            m.put("e2eItemsPerSecond", items / e2eSeconds);
        }
        m.put("itemsPerSecond", items / seconds);
        m.put("realTokensPerSecond", realTokens / seconds);
        m.put("paddingEfficiency", paddedTokens == 0 ? 1.0 : (double) realTokens / paddedTokens);
        double[] sorted = batchMillis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        for (int p : new int[] {50, 90, 95, 99}) {
            m.put("p" + p + "BatchMs", sorted.length == 0 ? null : sorted[Math.max(0,
                    Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1))]);
        }
        m.put("batches", sorted.length);
        m.put("usefulGflops", usefulFlops / seconds / 1e9);
        m.put("executedGflops", executedFlops / seconds / 1e9);
        m.put("peakRssMiB", Machine.peakRssMiB());
        if (cpuWindowSeconds > 0) { // share of all cores busy in this JVM over the timed window
            m.put("cpuUtilization", cpuSeconds / cpuWindowSeconds / Runtime.getRuntime().availableProcessors());
        }
        if (windowEndMillis > 0) {
            m.put("windowStartMillis", windowStartMillis);
            m.put("windowEndMillis", windowEndMillis);
        }
        m.putAll(extra);
        return m;
    }
}
