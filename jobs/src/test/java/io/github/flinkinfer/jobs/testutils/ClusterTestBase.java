package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.jobs.report.RunSummary;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the ITCases that run on the shared 2-TaskManager MiniCluster with a temp directory, so
 * each test class states only what it checks (as Flink's own {@code AbstractTestBase} does).
 */
public abstract class ClusterTestBase {
    /** Two TaskManagers with one slot each, started once per test class. */
    @RegisterExtension
    protected static final MiniClusterExtension CLUSTER = MiniClusters.twoTaskManagers();

    /** A fresh directory per test. */
    @TempDir protected Path tmp;

    /** Writes the records as {@code corpus.jsonl} in the temp directory and returns the file. */
    protected Path writeCorpus(Map<String, String> records) {
        return Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), records);
    }

    /** Runs {@code embed --input input --output out --run-id runId} and {@code extra} here. */
    protected static RunSummary embed(Path input, Path out, String runId, String... extra)
            throws Exception {
        String[] base = {"--input", input.toString(), "--output", out.toString(), "--run-id", runId};
        return MiniClusters.embed(Jobs.options(base, extra));
    }
}
