package io.github.flinkinfer.jobs.moderation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;

/**
 * The {@code moderate} job with the built-in spam filter over the SpamAssassin held-out split
 * (1,209 emails the model never saw), on a MiniCluster with 2 TaskManagers.
 */
class ModerationJobITCase extends ClusterTestBase {
    @Test
    void heldOutSplitGetsOneVerdictPerEmailAndFlaggedMatchesTheThreshold() throws Exception {
        Path heldOut = SpamAssassinSplit.heldOut();
        Map<String, String> gold = SpamAssassinSplit.labels(heldOut);
        assertThat(gold).hasSize(1209);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(
                "--input", heldOut.toString(), "--output", out.toString(), "--run-id", "heldout",
                "--model", ModerationJob.DEFAULT_MODEL, "--parallelism", "2",
                "--output-format", "parquet,jsonl", "--progress-seconds", "0");
        RunSummary summary = ModerationJob.run(
                o, o.environment());

        float threshold = ModelCard.resolve(ModerationJob.DEFAULT_MODEL).classification.thresholds.get("spam");
        List<JsonNode> results = Outputs.jsonLines(out.resolve(ModerationTask.RESULTS_DIR));
        assertThat(results).extracting(n -> n.get("id").asText())
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(gold.keySet());
        for (JsonNode r : results) {
            double ham = r.get("scores").get("ham").asDouble();
            double spam = r.get("scores").get("spam").asDouble();
            assertThat(ham + spam).isCloseTo(1.0, within(1e-4));
            assertThat(r.get("label").asText()).isEqualTo(spam > ham ? "spam" : "ham");
            assertThat(r.get("flagged").asBoolean()).isEqualTo(spam >= threshold);
        }
        Set<String> overThreshold = results.stream()
                .filter(r -> r.get("scores").get("spam").asDouble() >= threshold)
                .map(r -> r.get("id").asText())
                .collect(Collectors.toSet());
        List<JsonNode> flagged = Outputs.jsonLines(out.resolve(ModerationTask.FLAGGED_DIR));
        assertThat(flagged).extracting(n -> n.get("id").asText())
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(overThreshold);
        assertThat(flagged).allSatisfy(f -> assertThat(f.get("flagged_labels").get(0).asText()).isEqualTo("spam"));

        Map<String, GenericRecord> parquet = parquet(out.resolve(ModerationTask.RESULTS_DIR));
        assertThat(parquet.keySet()).containsExactlyInAnyOrderElementsOf(gold.keySet());
        assertThat(parquet(out.resolve(ModerationTask.FLAGGED_DIR)).keySet())
                .containsExactlyInAnyOrderElementsOf(overThreshold);
        for (JsonNode r : results) {
            GenericRecord row = parquet.get(r.get("id").asText());
            assertThat(row.get("label").toString()).isEqualTo(r.get("label").asText());
            assertThat((Boolean) row.get("flagged")).isEqualTo(r.get("flagged").asBoolean());
        }

        // The model's quality on emails it never saw (docs/moderation.md has the numbers).
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int correct = 0;
        for (JsonNode r : results) {
            boolean predictedSpam = r.get("flagged").asBoolean();
            boolean spam = gold.get(r.get("id").asText()).equals("spam");
            correct += predictedSpam == spam ? 1 : 0;
            tp += predictedSpam && spam ? 1 : 0;
            fp += predictedSpam && !spam ? 1 : 0;
            fn += !predictedSpam && spam ? 1 : 0;
        }
        double accuracy = correct / (double) results.size();
        System.out.printf(Locale.ROOT, "held-out: accuracy %.4f, spam precision %.4f, spam recall %.4f%n",
                accuracy, tp / (double) (tp + fp), tp / (double) (tp + fn));
        assertThat(accuracy).isGreaterThanOrEqualTo(0.95);

        assertThat(summary.succeeded).isEqualTo(1209);
        assertThat(summary.failed).isZero();
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
        assertThat(Outputs.hasInProgressFiles(out)).isFalse();
    }

    private static Map<String, GenericRecord> parquet(Path dir) {
        Map<String, GenericRecord> rows = new HashMap<>();
        for (Path f : Outputs.committed(dir)) {
            if (!f.toString().endsWith(".parquet")) {
                continue;
            }
            try (ParquetReader<GenericRecord> reader =
                    AvroParquetReader.<GenericRecord>builder(new LocalInputFile(f)).build()) {
                for (GenericRecord r; (r = reader.read()) != null; ) {
                    if (rows.put(r.get("id").toString(), r) != null) {
                        throw new AssertionError("duplicate output id " + r.get("id"));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return rows;
    }
}
