package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.operators.run.ForwardingFactory;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test-only model runtime that fails its task once (a non-inference exception, so no bisecting)
 * after the test {@link #arm()}s it, i.e. after it has seen a completed checkpoint. Slows each
 * batch a little so the job is still running then. State is static: the MiniCluster shares the JVM.
 */
final class FailOnceAfterCheckpoint extends ForwardingFactory {
    private static final long serialVersionUID = 1L;
    static final AtomicBoolean ARMED = new AtomicBoolean();
    static final AtomicBoolean FIRED = new AtomicBoolean();

    FailOnceAfterCheckpoint(ModelRuntimeFactory delegate) {
        super(delegate);
    }

    static void arm() {
        ARMED.set(true);
    }

    @Override
    protected void beforeInfer(List<int[]> batch) {
        if (ARMED.get() && FIRED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure after a completed checkpoint");
        }
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
