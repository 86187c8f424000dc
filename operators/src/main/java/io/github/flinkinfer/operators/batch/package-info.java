/**
 * Length bucketing and token budgets: groups tokenized inputs so batches waste little padding
 * without starving the device. Pure Java, no Flink types, so it is unit-tested and benchmarked
 * on its own.
 */
package io.github.flinkinfer.operators.batch;
