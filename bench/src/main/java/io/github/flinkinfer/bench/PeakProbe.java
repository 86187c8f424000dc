package io.github.flinkinfer.bench;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Measures the machine's fp32 peak instead of assuming a clock: every core runs independent
 * fused multiply-add chains on the widest vectors the JIT offers (AVX-512 here), twelve
 * accumulators deep so FMA latency is hidden, and the best of ten rounds is printed as {@code
 * PEAK <GFLOP/s>}. Nominal clocks understate it (cores turbo), so this is what "% of peak" uses.
 * Run in its own JVM with {@code --add-modules jdk.incubator.vector}.
 */
public final class PeakProbe {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    private PeakProbe() {}

    static float chains(long n) {
        FloatVector x = FloatVector.broadcast(S, 0.999999f);
        FloatVector y = FloatVector.broadcast(S, 1e-7f);
        FloatVector a0 = FloatVector.broadcast(S, 1f);
        FloatVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0,
                a10 = a0, a11 = a0;
        for (long i = 0; i < n; i++) {
            a0 = a0.fma(x, y);
            a1 = a1.fma(x, y);
            a2 = a2.fma(x, y);
            a3 = a3.fma(x, y);
            a4 = a4.fma(x, y);
            a5 = a5.fma(x, y);
            a6 = a6.fma(x, y);
            a7 = a7.fma(x, y);
            a8 = a8.fma(x, y);
            a9 = a9.fma(x, y);
            a10 = a10.fma(x, y);
            a11 = a11.fma(x, y);
        }
        return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).add(a8).add(a9).add(a10)
                .add(a11).reduceLanes(VectorOperators.ADD);
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Runtime.getRuntime().availableProcessors();
        long n = 30_000_000L;
        double best = 0;
        float[] sink = new float[threads];
        for (int round = 0; round < 10; round++) {
            Thread[] workers = new Thread[threads];
            long t0 = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int k = t;
                workers[t] = new Thread(() -> sink[k] = chains(n));
                workers[t].start();
            }
            for (Thread w : workers) {
                w.join();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            best = Math.max(best, threads * n * 12.0 * S.length() * 2 / seconds / 1e9);
        }
        System.out.println("PEAK " + best + " lanes=" + S.length() + " sink=" + (sink[0] > 0));
    }
}
