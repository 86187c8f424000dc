/**
 * The row half of each task kind, shared by the DataStream job and the SQL provider: how one text
 * becomes the model's input ({@link io.github.flinkinfer.operators.kinds.RowKind#encode}), which
 * values one raw output row holds and their columns. Found per model task in {@link
 * io.github.flinkinfer.operators.kinds.RowKinds}.
 */
package io.github.flinkinfer.operators.kinds;
