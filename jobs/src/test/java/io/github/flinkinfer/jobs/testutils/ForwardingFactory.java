package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.RuntimeOptions;

/**
 * A {@link ModelRuntimeFactory} with a real one's card and options; tests say only how they open
 * the runtime (usually a {@link ForwardingRuntime} that injects a fault or records calls).
 */
public abstract class ForwardingFactory implements ModelRuntimeFactory {
    private static final long serialVersionUID = 1L;

    protected final ModelRuntimeFactory delegate;

    protected ForwardingFactory(ModelRuntimeFactory delegate) {
        this.delegate = delegate;
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
