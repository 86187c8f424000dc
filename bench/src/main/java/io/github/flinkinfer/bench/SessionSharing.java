package io.github.flinkinfer.bench;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One ONNX Runtime session shared by T single-threaded callers against one session each, on the
 * CPU, the way T inference subtasks of a TaskManager call it: T models are loaded and each runs
 * one warm-up batch of each shape, then T threads run {@code batches} batches of {@code rows} ×
 * {@code length} tokens ({@code length} 0: the shapes a length-bucketed run sends, 128 × 16, 64 × 32, 32 × 64 and
 * 16 × 128 rows × tokens, in turn from a different one per thread, {@code rows} ignored). Prints
 * the loads' wall time (from the first load's start to the last's end), rows per second (from all
 * threads passing a barrier to the last one's end), each call's thread CPU time, and the JVM's peak
 * resident memory ({@code VmHWM}). Run one setting per JVM, interleaved:
 *
 * <pre>{@code
 * java -cp <bench classpath> io.github.flinkinfer.bench.SessionSharing true 2 40 32 64 all-minilm-l6-v2
 * }</pre>
 */
public final class SessionSharing {
    private SessionSharing() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: SessionSharing SHARE THREADS BATCHES ROWS LENGTH [MODEL]");
            System.exit(2);
        }
        boolean share = Boolean.parseBoolean(args[0]);
        int threads = Integer.parseInt(args[1]);
        int batches = Integer.parseInt(args[2]);
        int rows = Integer.parseInt(args[3]);
        int length = Integer.parseInt(args[4]);
        List<List<int[]>> shapes = length > 0 ? List.of(batch(rows, length))
                : List.of(batch(128, 16), batch(64, 32), batch(32, 64), batch(16, 128));
        ModelCard card = ModelCard.resolve(args.length > 5 ? args[5] : "all-minilm-l6-v2");
        RuntimeOptions options = RuntimeOptions.defaults().withShareSession(share);

        long loadStart = System.nanoTime();
        List<OnnxModel> models = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            models.add(OnnxModel.load(card, options));
        }
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        for (OnnxModel model : models) { // warm-up, here, so a caller can only fail after the barrier
            for (List<int[]> shape : shapes) {
                model.infer(shape);
            }
        }

        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] cpuNanos = new long[threads];
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int k = t;
            Thread caller = new Thread(() -> {
                try {
                    start.await();
                    long cpu = mx.getCurrentThreadCpuTime();
                    for (int i = 0; i < batches; i++) {
                        models.get(k).infer(shapes.get((k + i) % shapes.size()));
                    }
                    cpuNanos[k] = mx.getCurrentThreadCpuTime() - cpu;
                } catch (Exception e) {
                    failed.compareAndSet(null, e);
                }
            }, "caller-" + t);
            caller.start();
            callers.add(caller);
        }
        start.await();
        long runStart = System.nanoTime();
        for (Thread caller : callers) {
            caller.join();
        }
        double runSeconds = (System.nanoTime() - runStart) / 1e9;
        if (failed.get() != null) {
            throw new IllegalStateException("a caller failed", failed.get());
        }
        long cpuTotal = 0;
        for (long c : cpuNanos) {
            cpuTotal += c;
        }
        long rowsRun = 0;
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < batches; i++) {
                rowsRun += shapes.get((t + i) % shapes.size()).size();
            }
        }
        System.out.printf("share=%s threads=%d loadSeconds=%.2f rowsPerSecond=%.1f cpuMsPerBatch=%.2f peakRssMiB=%.0f%n",
                share, threads, loadSeconds, rowsRun / runSeconds, cpuTotal / 1e6 / threads / batches,
                Machine.peakRssMiB());
        for (OnnxModel m : models) {
            m.close();
        }
    }

    /** {@code rows} inputs of {@code length} ids: [CLS], seeded word-piece ids, [SEP]. */
    private static List<int[]> batch(int rows, int length) {
        Random random = new Random(1);
        List<int[]> batch = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            int[] ids = new int[length];
            ids[0] = 101;
            for (int i = 1; i < length - 1; i++) {
                ids[i] = 2000 + random.nextInt(20000);
            }
            ids[length - 1] = 102;
            batch.add(ids);
        }
        return batch;
    }
}
