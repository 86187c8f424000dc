/**
 * The run's spec: the immutable records a run is decided into once ({@code RunSpec} and its
 * {@code InputConfig}, {@code OutputConfig}, {@code InferenceConfig}, {@code KafkaSettings}) and the
 * closed sets they carry. Lowest of the run's packages: the lifecycle, the dataflow and the stages
 * import it, it imports none of them.
 */
package io.github.flinkinfer.jobs.spec;
