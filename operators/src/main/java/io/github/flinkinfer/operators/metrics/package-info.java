/**
 * Operator metrics: Micrometer meters (names carry units) bridged into Flink's metric system,
 * and the cost model that prices busy, load and idle time.
 */
package io.github.flinkinfer.operators.metrics;
