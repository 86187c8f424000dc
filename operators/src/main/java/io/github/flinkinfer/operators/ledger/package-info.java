/**
 * The run ledger: what a job read, dropped, skipped, inferred, failed and wrote, counted by small
 * tally operators chained to each stage and merged by one {@link
 * io.github.flinkinfer.operators.ledger.LedgerOperator}, so the driver and {@code report} read one
 * small file instead of every record; the error budget is checked against it. Sizes are
 * O(subtasks + sources), never O(records).
 */
package io.github.flinkinfer.operators.ledger;
