package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.testutils.ForwardingRuntime;
import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.RuntimeOptions;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test-only model runtime that fails its task once (a non-inference exception, so no bisecting)
 * after the test {@link #arm()}s it, i.e. after it has seen a completed checkpoint. Slows each
 * batch a little so the job is still running then. State is static: the MiniCluster shares the JVM.
 */
record FailOnceAfterCheckpoint(ModelRuntimeFactory delegate) implements ModelRuntimeFactory {
    static final AtomicBoolean ARMED = new AtomicBoolean();
    static final AtomicBoolean FIRED = new AtomicBoolean();

    static void arm() {
        ARMED.set(true);
    }

    @Override
    public ModelRuntime open(Device device) {
        return new ForwardingRuntime(delegate.open(device)) {
            @Override
            public Inference infer(List<int[]> batch) {
                if (ARMED.get() && FIRED.compareAndSet(false, true)) {
                    throw new IllegalStateException("injected failure after a completed checkpoint");
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return delegate.infer(batch);
            }
        };
    }

    @Override
    public ModelCard card() {
        return delegate.card();
    }

    @Override
    public RuntimeOptions options() {
        return delegate.options();
    }
}
