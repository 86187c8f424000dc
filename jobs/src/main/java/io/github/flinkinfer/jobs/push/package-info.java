/**
 * A finished run's numbers where teams look: {@link io.github.flinkinfer.jobs.push.RunMeters}
 * turns a run summary into Micrometer meters tagged with run id, task, model, workload and
 * outcome, and {@link io.github.flinkinfer.jobs.push.RunMetrics} pushes them to a Prometheus
 * Pushgateway once the run's verdicts are in (docs/operations.md, "Pushing run metrics").
 */
package io.github.flinkinfer.jobs.push;
