package io.github.flinkinfer.operators;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.InferenceException;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.RuntimeOptions;
import java.util.List;

/**
 * Opens the real model behind a runtime that runs out of memory (as ONNX Runtime reports it) on
 * any batch of more than {@code maxRows} rows, so tests see the operator split and retry.
 */
record RowLimitModel(ModelRuntimeFactory real, int maxRows) implements ModelRuntimeFactory {

    @Override
    public ModelRuntime open(Device device) {
        ModelRuntime inner = real.open(device);
        return new ModelRuntime() {
            @Override
            public Inference infer(List<int[]> batch) {
                if (batch.size() > maxRows) {
                    throw InferenceException.from(new OutOfMemoryError("Failed to allocate memory for test"));
                }
                return inner.infer(batch);
            }

            @Override
            public ModelCard card() {
                return inner.card();
            }

            @Override
            public Device device() {
                return inner.device();
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }

    @Override
    public ModelCard card() {
        return real.card();
    }

    @Override
    public RuntimeOptions options() {
        return real.options();
    }
}
