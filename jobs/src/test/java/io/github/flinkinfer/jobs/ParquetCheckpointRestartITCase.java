package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.io.ByteRangeEnumerator;
import io.github.flinkinfer.jobs.testutils.FailOnceAfterCheckpoint;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.ParquetCorpus;
import io.github.flinkinfer.operators.ledger.RunLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * STREAMING with checkpoints over a Parquet file read by row group in several byte ranges: the job
 * fails once after a checkpoint completed, its readers restore their splits at the checkpointed row
 * group and row, and the outputs and errors hold every row exactly once at its position.
 */
class ParquetCheckpointRestartITCase {
    private static final int ROWS = 3_000;

    /** Tiny network buffers: a checkpoint completes while most rows are still to be read. */
    @RegisterExtension static final MiniClusterExtension CLUSTER =
            MiniClusters.twoTaskManagers(FailOnceAfterCheckpoint.smallNetworkBuffers());

    @TempDir Path tmp;

    @Test
    void restartFromCheckpointReadsEveryRowOnce() throws Exception {
        Path file = ParquetCorpus.write(tmp.resolve("rows.parquet"), ROWS, 4 << 10);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options("--input", file.toString(), "--output", out.toString(), "--run-id", "pq",
                "--parallelism", "2", "--runtime-mode", "STREAMING", "--checkpoint-interval-ms", "300",
                "--max-batch-size", "16", "--lookahead-batches", "1", "--max-error-rate", "1.0");
        o.validate();
        StreamExecutionEnvironment env = o.environment();
        Configuration ranges = new Configuration();
        ranges.set(ByteRangeEnumerator.SPLIT_SIZE, MemorySize.parse(Files.size(file) / 6 + "b"));
        env.configure(ranges);
        FailOnceAfterCheckpoint.embedFailingOnce(o, env, out);

        assertThat(FailOnceAfterCheckpoint.FIRED).isTrue();
        List<String> expectedErrors = new ArrayList<>();
        int good = 0;
        for (int i = 0; i < ROWS; i++) {
            if (ParquetCorpus.kind(i) == 0) {
                good++;
            } else {
                expectedErrors.add(file.getFileName() + ":" + (i + 1));
            }
        }
        var rows = Outputs.embeddings(out);
        assertThat(rows).hasSize(good);
        for (var row : rows.entrySet()) {
            int i = Integer.parseInt(row.getKey().substring(1));
            GenericRecord r = row.getValue();
            assertThat(r.get("source").toString()).as("row of %s", row.getKey()).endsWith("/rows.parquet:" + (i + 1));
        }
        List<String> errors = new ArrayList<>();
        for (JsonNode e : Outputs.jsonLines(out.resolve("errors"))) {
            String source = e.get("source").asText();
            errors.add(source.substring(source.lastIndexOf('/') + 1));
        }
        assertThat(errors).containsExactlyInAnyOrderElementsOf(expectedErrors);
        // STREAMING: the ledger restored with the checkpoint counts the replayed rows once
        RunLedger ledger = RunLedger.fromJson(Files.readString(out.resolve("ledger-pq.json")));
        assertThat(ledger.read()).isEqualTo(ROWS);
        assertThat(ledger.succeeded).isEqualTo(good);
        assertThat(ledger.reconcile().ok()).isTrue();
    }
}
