package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.runtime.InferenceException;
import java.util.List;

/**
 * Opens the real model behind a runtime that runs out of memory (as ONNX Runtime reports it) on
 * any batch of more than {@code maxRows} rows, so tests see the operator split and retry.
 */
final class RowLimitModel extends ForwardingFactory {
    private static final long serialVersionUID = 1L;
    private final int maxRows;

    RowLimitModel(ModelRuntimeFactory real, int maxRows) {
        super(real);
        this.maxRows = maxRows;
    }

    @Override
    protected void beforeInfer(List<int[]> batch) {
        if (batch.size() > maxRows) {
            throw InferenceException.from(new OutOfMemoryError("Failed to allocate memory for test"));
        }
    }
}
