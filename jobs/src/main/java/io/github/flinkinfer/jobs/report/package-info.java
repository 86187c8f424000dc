/**
 * What a finished run says: its summary, report (job-wide totals, cost breakdown and charts) and
 * manifest, rebuilt from the ledger its job wrote, and the verdicts on it (workload clauses,
 * accounting, quality gate).
 */
package io.github.flinkinfer.jobs.report;
