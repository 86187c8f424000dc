package io.github.flinkinfer.operators.sql;

import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.io.Serializable;

/**
 * What one {@code CREATE MODEL ... 'provider' = 'onnx'} resolves to, handed as one value from the
 * factory through the provider to each ML_PREDICT function: the model, its batching, the
 * over-long policy and the output columns.
 */
record PredictSetup(
        ModelRuntimeFactory factory, BatchingConfig batching, OverlongPolicy overlong, OutputColumns columns)
        implements Serializable {}
