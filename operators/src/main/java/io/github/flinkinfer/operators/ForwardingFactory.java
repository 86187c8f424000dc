package io.github.flinkinfer.operators;

import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.RuntimeOptions;

/**
 * A {@link ModelRuntimeFactory} with another one's card and options: subclasses say only how they
 * open the runtime, usually a {@link io.github.flinkinfer.runtime.ForwardingRuntime} around the
 * delegate's (fault injection in tests, a runtime that reports another device, ...).
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
