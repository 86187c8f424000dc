/**
 * Workload contracts: a card states a corpus, the acceptable model variants, a deadline, a budget
 * and a quality floor; {@code plan --workload} chooses the cheapest variant that meets them and
 * {@code embed/moderate --workload} runs it, and the report's verdicts judge every clause
 * (docs/workload.md).
 */
package io.github.flinkinfer.jobs.workload;
