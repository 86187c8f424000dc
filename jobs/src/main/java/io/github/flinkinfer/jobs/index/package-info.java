/**
 * Search-index jobs: chunking and pooling options, output formats that vector indexes ingest
 * (OpenSearch/Elasticsearch {@code _bulk} NDJSON, pgvector {@code COPY} CSV) and incremental runs
 * that reuse an earlier run's output. See docs/search-index.md.
 */
package io.github.flinkinfer.jobs.index;
