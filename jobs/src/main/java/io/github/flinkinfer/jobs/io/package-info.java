/** Sources and sinks of the jobs: line-oriented corpus files with positions, Parquet, JSONL. */
package io.github.flinkinfer.jobs.io;
