/** A simulated accelerator for the benchmark: a device's cost and its one stream, on CPU (never offered as a model). */
package io.github.flinkinfer.bench.device;
