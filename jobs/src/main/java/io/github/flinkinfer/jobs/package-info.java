/** Entry points: the {@code flink-inference} CLI, job options, and the pipelines they build. */
package io.github.flinkinfer.jobs;
