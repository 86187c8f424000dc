/**
 * The side-by-side benchmark: {@link io.github.flinkinfer.bench.Bench} runs every contender in
 * its own JVM ({@link io.github.flinkinfer.bench.Contender}), interleaved, and reports medians
 * and ratios. See docs/benchmarks/README.md for the protocol.
 */
package io.github.flinkinfer.bench;
