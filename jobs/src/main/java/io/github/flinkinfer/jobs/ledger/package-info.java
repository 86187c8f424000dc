/** The run's accounting in the dataflow: where each stage's records are tallied into the run ledger. */
package io.github.flinkinfer.jobs.ledger;
