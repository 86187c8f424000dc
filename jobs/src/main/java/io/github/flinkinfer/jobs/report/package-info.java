/** The run report: job-wide totals, cost breakdown and charts, rebuilt from a run's records. */
package io.github.flinkinfer.jobs.report;
