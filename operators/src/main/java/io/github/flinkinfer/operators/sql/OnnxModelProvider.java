package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.operators.OverlongPolicy;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.functions.AsyncPredictFunction;
import org.apache.flink.table.ml.AsyncPredictRuntimeProvider;
import org.apache.flink.table.ml.ModelProvider;

/**
 * An ONNX model for ML_PREDICT. Async only, on purpose: the async path lets one subtask hold many
 * rows at once, which is what batching needs; the planner picks it without any query hint.
 */
final class OnnxModelProvider implements AsyncPredictRuntimeProvider {
    private final ModelRuntimeFactory factory;
    private final BatchingConfig batching;
    private final OverlongPolicy overlong;
    private final OutputColumns columns;
    private final int sessionCapacity;

    OnnxModelProvider(ModelRuntimeFactory factory, BatchingConfig batching, OverlongPolicy overlong,
            OutputColumns columns, int sessionCapacity) {
        this.factory = factory;
        this.batching = batching;
        this.overlong = overlong;
        this.columns = columns;
        this.sessionCapacity = sessionCapacity;
    }

    @Override
    public AsyncPredictFunction createAsyncPredictFunction(Context context) {
        // ML_PREDICT(..., MAP['max-concurrent-operations', 'N']) overrides the session setting.
        ReadableConfig query = context.runtimeConfig();
        int capacity = query.getOptional(OnnxModelOptions.QUERY_CAPACITY).orElse(sessionCapacity);
        return new BatchedPredictFunction(factory, batching, overlong, columns, capacity);
    }

    @Override
    public ModelProvider copy() {
        return new OnnxModelProvider(factory, batching, overlong, columns, sessionCapacity);
    }
}
