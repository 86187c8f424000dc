/**
 * Operator metrics in Flink's metric system (counters, latency buckets Prometheus can merge across
 * subtasks, gauges), the per-batch metrics record and its quality sample, and the cost model that
 * prices busy, load and idle time.
 */
package io.github.flinkinfer.operators.metrics;
