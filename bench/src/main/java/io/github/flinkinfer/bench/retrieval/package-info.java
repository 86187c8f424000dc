/**
 * Retrieval quality beside cost: {@link io.github.flinkinfer.bench.retrieval.RetrievalBench} embeds
 * a labelled task's corpus and queries with the job, searches exactly, and reports recall@10 and
 * nDCG@10 with the same runs' items/s and cost. See docs/retrieval.md.
 */
package io.github.flinkinfer.bench.retrieval;
