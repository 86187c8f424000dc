/** The {@code sql} command: SQL scripts (ML_PREDICT with the {@code onnx} provider) on Flink. */
package io.github.flinkinfer.jobs.sql;
