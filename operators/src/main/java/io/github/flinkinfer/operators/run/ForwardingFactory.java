package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ForwardingRuntime;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.List;

/**
 * A {@link ModelRuntimeFactory} with another one's card and options whose runtimes call {@link
 * #beforeInfer} ahead of every batch: subclasses say only what they change (fault injection in
 * tests, a runtime that reports another device, ...).
 *
 * <pre>{@code
 * class RowLimit extends ForwardingFactory {
 *     protected void beforeInfer(List<int[]> batch) { if (batch.size() > 8) throw ...; }
 * }
 * }</pre>
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

    /** The delegate's runtime on {@code device}, with {@link #beforeInfer} ahead of each batch. */
    @Override
    public ModelRuntime open(Device device) {
        return new ForwardingRuntime(delegate.open(device)) {
            @Override
            public Inference infer(List<int[]> batch) {
                beforeInfer(batch);
                return delegate.infer(batch);
            }
        };
    }

    /** Runs on the calling thread before a batch reaches the model; throw to fail it. Nothing here. */
    protected void beforeInfer(List<int[]> batch) {}
}
