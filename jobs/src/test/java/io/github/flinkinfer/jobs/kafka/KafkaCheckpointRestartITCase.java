package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.FailOnceAfterCheckpoint;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * STREAMING mode with checkpoints: the job fails once after a checkpoint completed (seen as
 * committed output files), restarts from it, and both the files and the read_committed topic hold
 * every id exactly once.
 */
class KafkaCheckpointRestartITCase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();
    /**
     * Two TaskManagers with tiny network buffers: little data is in flight, so an aligned
     * checkpoint completes while most of the corpus is still to be embedded.
     */
    @RegisterExtension static final MiniClusterExtension CLUSTER =
            MiniClusters.twoTaskManagers(FailOnceAfterCheckpoint.smallNetworkBuffers());

    @TempDir Path tmp;

    @Test
    void restartFromCheckpointKeepsEveryIdExactlyOnce() throws Exception {
        KAFKA.createTopic("cp-corpus", 2);
        KAFKA.produce("cp-corpus", KafkaJobs.corpus("doc", 3_000));
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(KafkaJobs.args(
                KAFKA.bootstrapServers(), "--kafka-topic", "cp-corpus", "--output", out.toString(),
                "--run-id", "cp", "--kafka-output-topic", "cp-embeddings",
                "--kafka-errors-topic", "cp-errors", "--kafka-transactional-id-prefix", "cp-it",
                "--runtime-mode", "STREAMING", "--checkpoint-interval-ms", "300",
                "--max-batch-size", "16", "--lookahead-batches", "1").toArray(String[]::new));
        o.validate();
        FailOnceAfterCheckpoint.embedFailingOnce(o, o.environment(), out);

        assertThat(FailOnceAfterCheckpoint.FIRED).isTrue();
        List<String> keys = KAFKA.committedKeys("cp-embeddings");
        assertThat(keys).doesNotHaveDuplicates().hasSize(3_000);
        assertThat(Outputs.embeddings(out)).hasSize(3_000);
        assertThat(KAFKA.committedKeys("cp-errors")).isEmpty();
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
        // STREAMING: the ledger restored with the checkpoint counts the replayed records once
        io.github.flinkinfer.operators.ledger.RunLedger ledger = io.github.flinkinfer.operators.ledger.RunLedger
                .fromJson(java.nio.file.Files.readString(out.resolve("ledger-cp.json")));
        assertThat(ledger.read()).isEqualTo(3_000);
        assertThat(ledger.succeeded).isEqualTo(3_000);
        assertThat(ledger.written).isEqualTo(3_000L);
        assertThat(ledger.readBySource).containsOnlyKeys("cp-corpus-0", "cp-corpus-1");
        assertThat(ledger.reconcile().ok()).isTrue();
    }
}
