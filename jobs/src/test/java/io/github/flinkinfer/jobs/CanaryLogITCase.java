package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No input text, token or output value in logs: a canary string goes through every path (a
 * good record, a duplicate, a malformed line, an over-long rejected one) and no log file of the
 * test run may contain it.
 */
class CanaryLogITCase extends ClusterTestBase {
    static final String CANARY = "zqxcanaryvwk";


    @Test
    void canaryNeverReachesALogFile() throws Exception {
        Path input = Files.writeString(tmp.resolve("canary.jsonl"), String.join("\n", List.of(
                "{\"id\":\"good\",\"text\":\"a document holding " + CANARY + " in it\"}",
                "{\"id\":\"good\",\"text\":\"duplicate " + CANARY + "\"}",
                "{\"id\":\"broken\",\"text\":\"" + CANARY,
                "{\"id\":\"long\",\"text\":\"" + (CANARY + " ").repeat(80) + "\"}",
                "{\"id\":\"" + CANARY + "\",\"text\":42}")) + "\n");
        Path out = tmp.resolve("out");
        RunSummary s = embed(input, out, "canary",
                "--model", "all-minilm-l6-v2-q", "--max-length", "64", "--overlong", "reject",
                "--max-error-rate", "1.0"); // failures on purpose
        assertThat(s.succeeded).isEqualTo(1);
        assertThat(s.failed).isEqualTo(3); // the duplicate is dropped, not failed (RunCounts)
        assertThat(s.duplicates).isEqualTo(1);

        Path logs = Path.of("target/test-logs");
        assertThat(logs).isDirectory();
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.size(f)).isPositive();
                assertThat(Files.readString(f)).as("log file %s", f).doesNotContain(CANARY);
            }
        }
    }
}
