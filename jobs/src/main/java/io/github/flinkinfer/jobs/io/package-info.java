/** Sources and sinks of the jobs (line-oriented corpus files with positions, Parquet, JSONL) and a run's files under its output. */
package io.github.flinkinfer.jobs.io;
