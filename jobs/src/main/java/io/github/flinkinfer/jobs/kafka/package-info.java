/** Kafka backfills: a bounded topic source, Kafka sinks for outputs and errors, and their checks. */
package io.github.flinkinfer.jobs.kafka;
