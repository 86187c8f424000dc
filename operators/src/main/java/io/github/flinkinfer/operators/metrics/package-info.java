/**
 * Operator metrics in Flink's metric system (counters, latency buckets Prometheus can merge across
 * subtasks, gauges), and the cost model that prices busy, load and idle time.
 */
package io.github.flinkinfer.operators.metrics;
