package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.QuotedCsv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A CSV with quoted multi-line fields, {@code ""} quotes and broken records, embedded on two
 * TaskManagers: every good record reaches the outputs once, every broken one reaches errors with
 * the number of its first line.
 */
class QuotedCsvITCase extends ClusterTestBase {

    @Test
    void multiLineRecordsAreReadWholeAndBrokenOnesReportedByTheirFirstLine() throws Exception {
        Path csv = tmp.resolve("quoted.csv");
        Files.writeString(csv, QuotedCsv.CONTENT);
        Path out = tmp.resolve("out");
        RunSummary summary = MiniClusters.embed(Jobs.options(
                "--input", csv.toString(), "--output", out.toString(), "--run-id", "csv",
                "--parallelism", "2", "--max-error-rate", "1.0")); // bad records on purpose

        assertThat(Outputs.embeddings(out).keySet()) // duplicates would fail here
                .containsExactlyInAnyOrderElementsOf(QuotedCsv.GOOD.keySet());
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        Map<Integer, String> byLine = errors.stream().collect(Collectors.toMap(
                e -> Integer.parseInt(e.get("source").asText().replaceAll(".*quoted\\.csv:", "")),
                e -> e.get("reason").asText()));
        assertThat(byLine).isEqualTo(QuotedCsv.ERRORS);
        assertThat(errors).allSatisfy(e -> assertThat(e.get("stage").asText()).isEqualTo("parse"));
        assertThat(summary.succeeded).isEqualTo(QuotedCsv.GOOD.size());
        assertThat(summary.failed).isEqualTo(QuotedCsv.ERRORS.size());
    }
}
