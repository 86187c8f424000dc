package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelRuntime;
import java.util.List;

/** A {@link ModelRuntime} that forwards to a real one; tests override what they change. */
public class ForwardingRuntime implements ModelRuntime {
    protected final ModelRuntime delegate;

    public ForwardingRuntime(ModelRuntime delegate) {
        this.delegate = delegate;
    }

    @Override
    public Inference infer(List<int[]> batch) {
        return delegate.infer(batch);
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
    public void close() {
        delegate.close();
    }
}
