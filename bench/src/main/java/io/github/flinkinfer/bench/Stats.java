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
    final List<Double> batchMillis = new ArrayList<>();
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
        m.putAll(extra);
        return m;
    }
}
