package io.github.flinkinfer.jobs.plan;

import io.github.flinkinfer.jobs.plan.PlanCommand.Measured;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One measured pass of a batching setting over the sample by {@code n} models at once, one thread
 * each, as {@code n} subtasks of a run share a machine (their models share one session where the
 * run's options share it). The per-subtask time is the mean of the threads' own times (each timer
 * starts when its thread starts the pass and stops after its last batch); the outputs are the
 * first thread's (the caller's model).
 */
record ConcurrentPass(double seconds, long realTokens, float[][] outputs) {

    /** {@code passes} passes; the median time, the first pass's outputs. */
    static ConcurrentPass median(ModelRuntime model, ModelCard card, RuntimeOptions options, List<int[]> tokens,
            BatchingConfig config, int n, int passes) {
        List<ConcurrentPass> runs = new ArrayList<>();
        for (int i = 0; i < Math.max(1, passes); i++) {
            runs.add(run(model, card, options, tokens, config, n));
        }
        double[] times = runs.stream().mapToDouble(ConcurrentPass::seconds).sorted().toArray();
        return new ConcurrentPass(times[times.length / 2], runs.get(0).realTokens(), runs.get(0).outputs());
    }

    static ConcurrentPass run(ModelRuntime model, ModelCard card, RuntimeOptions options, List<int[]> tokens,
            BatchingConfig config, int n) {
        if (n <= 1) {
            Measured m = PlanCommand.measure(model, tokens, config);
            return new ConcurrentPass(m.seconds(), m.realTokens(), m.outputs());
        }
        List<ModelRuntime> others = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            for (int i = 1; i < n; i++) {
                ModelRuntime other = ModelRuntimeFactory.onnx(card, options).open(Device.CPU);
                others.add(other);
                PlanCommand.measure(other, tokens.subList(0, Math.min(VariantSweep.WARM_UP, tokens.size())), config);
            }
            List<Future<Measured>> runs = new ArrayList<>();
            runs.add(pool.submit(() -> PlanCommand.measure(model, tokens, config)));
            for (ModelRuntime other : others) {
                runs.add(pool.submit(() -> PlanCommand.measure(other, tokens, config)));
            }
            double seconds = 0;
            Measured first = null;
            for (Future<Measured> f : runs) {
                Measured m = f.get();
                first = first == null ? m : first;
                seconds += m.seconds();
            }
            return new ConcurrentPass(seconds / n, first.realTokens(), first.outputs());
        } catch (Exception e) {
            throw new IllegalStateException("concurrent measurement failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
            others.forEach(ModelRuntime::close);
        }
    }
}
