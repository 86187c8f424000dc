/**
 * The jobs module, one role a package, each importing only packages below it (docs/architecture.md,
 * "Packages of jobs"): cli (commands) over run (lifecycle) over the dataflow, its tasks and stages
 * (dataflow, moderation, index, kafka, io, ledger) and the finished run (push, report), over spec
 * (the run's records) and workload (the card); plan, sql and models are tools beside them.
 */
package io.github.flinkinfer.jobs;
