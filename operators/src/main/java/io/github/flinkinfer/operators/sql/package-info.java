/**
 * Flink SQL front door: {@code CREATE MODEL ... WITH ('provider' = 'onnx')} and {@code
 * ML_PREDICT}, running the same {@link io.github.flinkinfer.operators.kinds.RowKind} (tokenization,
 * output values and columns), {@link io.github.flinkinfer.operators.batch.LengthBucketBatcher} and
 * {@link io.github.flinkinfer.operators.run.BisectingRunner} as the DataStream job, in-process.
 *
 * <pre>{@code
 * CREATE MODEL minilm INPUT (text STRING) OUTPUT (embedding ARRAY<FLOAT>)
 * WITH ('provider' = 'onnx', 'model' = 'all-minilm-l6-v2', 'max-batch-tokens' = '8192');
 * INSERT INTO out SELECT id, embedding FROM ML_PREDICT(TABLE docs, MODEL minilm, DESCRIPTOR(text));
 * }</pre>
 */
package io.github.flinkinfer.operators.sql;
