/** The Flink job graph every run shares, each stage configured by a small record of the spec. */
package io.github.flinkinfer.jobs.dataflow;
