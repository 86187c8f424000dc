package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.ledger.ErrorBudgetExceededException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Past the error budget the run fails with a summary of reasons and leaves no output. */
class ErrorBudgetITCase extends ClusterTestBase {

    @Test
    void mostlyBadCorpusFailsWithReasonsAndCommitsNothing() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1500; i++) {
            sb.append(i % 3 == 0
                    ? "{\"id\":\"ok-" + i + "\",\"text\":\"a fine sentence " + i + "\"}\n"
                    : "{\"identifier\":\"wrong field " + i + "\",\"text\":\"x\"}\n");
        }
        Path input = Files.writeString(tmp.resolve("wrong-id-field.jsonl"), sb);
        Path out = tmp.resolve("out");
        assertThatThrownBy(() -> embed(input, out, "budget",
                        "--model", "all-minilm-l6-v2-q", "--parallelism", "2", "--max-error-rate", "0.2"))
                .isInstanceOf(ErrorBudgetExceededException.class)
                .hasMessageContaining("--max-error-rate 0.2")
                .hasMessageContaining("parse/missing_id=");
        assertThat(Outputs.committed(out.resolve("embeddings"))).isEmpty();
        assertThat(Outputs.committed(out.resolve("errors"))).isEmpty();
        assertThat(out.resolve("_SUCCESS-budget")).doesNotExist();
    }

    /** Issue 22: a run in which every input fails must not get a success marker by default. */
    @Test
    void byDefaultAnAllFailedRunFailsAndOnlyAnExplicitRateOfOneLetsItThrough() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            sb.append("{\"id\":\"r-").append(i).append("\",\"text\":\"a sentence of some length ").append(i).append("\"}\n");
        }
        Path input = Files.writeString(tmp.resolve("all-too-large.jsonl"), sb);
        Path out = tmp.resolve("all-failed");
        assertThatThrownBy(() -> embed(input, out, "all", "--model", "all-minilm-l6-v2-q", "--max-record-bytes", "10"))
                .isInstanceOf(ErrorBudgetExceededException.class)
                .hasMessageContaining("--max-error-rate 0.01")
                .hasMessageContaining("(200 of 200 inputs)")
                .hasMessageContaining("parse/record_too_large=200");
        assertThat(out.resolve("_SUCCESS-all")).doesNotExist();

        RunSummary allowed = embed(input, out, "all", "--model", "all-minilm-l6-v2-q", "--max-record-bytes", "10",
                "--max-error-rate", "1.0");
        assertThat(allowed.failed).isEqualTo(200);
        assertThat(allowed.reconciliation.statement()).isEqualTo("read 200 = succeeded 0 + failed 200 + skipped 0 + duplicates 0");
        assertThat(out.resolve("_SUCCESS-all")).exists();
    }

    @Test
    void withinBudgetTheRunSucceeds() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            sb.append(i == 50 ? "{broken\n" : "{\"id\":\"ok-" + i + "\",\"text\":\"sentence " + i + "\"}\n");
        }
        Path input = Files.writeString(tmp.resolve("one-bad.jsonl"), sb);
        Path out = tmp.resolve("out2");
        RunSummary s = embed(input, out, "ok",
                "--model", "all-minilm-l6-v2-q", "--max-errors", "1", "--max-error-rate", "0.05");
        assertThat(s.succeeded).isEqualTo(99);
        assertThat(s.failed).isEqualTo(1);
    }
}
