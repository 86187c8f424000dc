package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.io.ByteRangeEnumerator;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.QuotedCsv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

/**
 * A CSV with quoted multi-line fields, {@code ""} quotes and broken records, cut into ranges of 40
 * bytes and embedded on two TaskManagers: every good record reaches the outputs once, every broken
 * one reaches errors at the offset of its first byte.
 */
class QuotedCsvITCase extends ClusterTestBase {

    @Test
    void multiLineRecordsCutIntoRangesAreReadWholeAndBrokenOnesReportedAtTheirFirstByte() throws Exception {
        Path csv = tmp.resolve("quoted.csv");
        Files.writeString(csv, QuotedCsv.CONTENT);
        Path out = tmp.resolve("out");
        var options = Jobs.options(
                "--input", csv.toString(), "--output", out.toString(), "--run-id", "csv",
                "--parallelism", "2", "--max-error-rate", "1.0"); // bad records on purpose
        var env = options.environment();
        env.configure(new Configuration().set(ByteRangeEnumerator.SPLIT_SIZE, MemorySize.parse("40b")));
        RunSummary summary = EmbeddingJob.run(options, env); // 7 ranges of 39-40 bytes

        assertThat(Outputs.embeddings(out).keySet()) // duplicates would fail here
                .containsExactlyInAnyOrderElementsOf(QuotedCsv.GOOD.keySet());
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        Map<Integer, String> byLine = errors.stream().collect(Collectors.toMap(
                e -> QuotedCsv.lineOf(e.get("source").asText()),
                e -> e.get("reason").asText()));
        assertThat(byLine).isEqualTo(QuotedCsv.ERRORS);
        assertThat(errors).allSatisfy(e -> assertThat(e.get("stage").asText()).isEqualTo("parse"));
        assertThat(summary.succeeded).isEqualTo(QuotedCsv.GOOD.size());
        assertThat(summary.failed).isEqualTo(QuotedCsv.ERRORS.size());
    }
}
