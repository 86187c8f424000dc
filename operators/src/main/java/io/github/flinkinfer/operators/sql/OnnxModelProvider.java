package io.github.flinkinfer.operators.sql;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.functions.AsyncPredictFunction;
import org.apache.flink.table.ml.AsyncPredictRuntimeProvider;
import org.apache.flink.table.ml.ModelProvider;

/**
 * An ONNX model for ML_PREDICT. Async only, on purpose: the async path lets one subtask hold many
 * rows at once, which is what batching needs; the planner picks it without any query hint.
 */
record OnnxModelProvider(PredictSetup setup, int sessionCapacity) implements AsyncPredictRuntimeProvider {
    @Override
    public AsyncPredictFunction createAsyncPredictFunction(Context context) {
        // ML_PREDICT(..., MAP['max-concurrent-operations', 'N']) overrides the session setting.
        ReadableConfig query = context.runtimeConfig();
        int capacity = query.getOptional(OnnxModelOptions.QUERY_CAPACITY).orElse(sessionCapacity);
        return new BatchedPredictFunction(setup, capacity);
    }

    @Override
    public ModelProvider copy() {
        return new OnnxModelProvider(setup, sessionCapacity);
    }
}
