/** The jobs module: cli (commands), run (lifecycle), dataflow (job graph), report, and the stage packages (io, kafka, index, ledger, moderation, workload, ...). */
package io.github.flinkinfer.jobs;
