package io.github.flinkinfer.runtime;

import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;

/**
 * A {@link ModelRuntime} that forwards every call to another one: the base of decorators that
 * change one thing (inject a fault, limit batch rows, record calls, report another device).
 *
 * <pre>{@code
 * ModelRuntime counting = new ForwardingRuntime(real) {
 *     public Inference infer(List<int[]> batch) { calls.incrementAndGet(); return delegate.infer(batch); }
 * };
 * }</pre>
 */
public class ForwardingRuntime implements ModelRuntime {
    protected final ModelRuntime delegate;

    public ForwardingRuntime(ModelRuntime delegate) {
        this.delegate = delegate;
    }

    @Override
    public Inference infer(List<int[]> batch) {
        return delegate.infer(batch);
    }

    /** Forwards text pairs as they are (a subclass that changes single batches sees no pairs). */
    @Override
    public Inference infer(List<int[]> batch, List<int[]> segmentIds) {
        return segmentIds == null ? infer(batch) : delegate.infer(batch, segmentIds);
    }

    @Override
    public ModelCard card() {
        return delegate.card();
    }

    @Override
    public Device device() {
        return delegate.device();
    }

    @Override
    public LoadTimes loadTimes() {
        return delegate.loadTimes();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
