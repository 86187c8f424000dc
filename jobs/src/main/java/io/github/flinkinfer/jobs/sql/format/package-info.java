/**
 * The {@code json-with-errors} table format: JSON Lines for the filesystem connector that turns
 * every unreadable line into an error row (reason and {@code file:line}) instead of failing the
 * job, so SQL keeps the DataStream jobs' errors contract (docs/sql.md).
 */
package io.github.flinkinfer.jobs.sql.format;
