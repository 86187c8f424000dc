package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A TaskManager is terminated while the backfill is writing (its uncommitted records are already
 * in the output topic): the failed region is re-run and a read_committed consumer still sees
 * every id exactly once; the aborted attempt's records stay invisible.
 */
class KafkaTaskManagerFailureITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void everyIdExactlyOnceDespiteALostTaskManager(@InjectMiniCluster MiniCluster mini) throws Exception {
        KAFKA.createTopic("tm-corpus", 2);
        KAFKA.produce("tm-corpus", KafkaJobs.corpus("doc", 10_000));
        Path out = tmp.resolve("out");
        CompletableFuture<RunSummary> job = KafkaJobs.startAsync(Jobs.options(KafkaJobs.args(
                KAFKA.bootstrapServers(), "--kafka-topic", "tm-corpus", "--output", out.toString(),
                "--run-id", "tm-loss", "--kafka-output-topic", "tm-embeddings",
                "--kafka-transactional-id-prefix", "tm-loss-it").toArray(String[]::new)));

        awaitUncommitted("tm-embeddings", 300, Duration.ofSeconds(90));
        assertThat(job).isNotDone();
        mini.terminateTaskManager(0).get();
        mini.startTaskManager();
        RunSummary summary = job.get();

        List<String> keys = KAFKA.committedKeys("tm-embeddings");
        assertThat(keys).doesNotHaveDuplicates().hasSize(10_000);
        assertThat(Outputs.embeddings(out)).hasSize(10_000);
        assertThat(summary.succeeded).isEqualTo(10_000);
        // The lost attempt really wrote records, which read_committed consumers never see.
        assertThat(KAFKA.readAll("tm-embeddings", "read_uncommitted").size()).isGreaterThan(10_000);
    }

    private static void awaitUncommitted(String topic, int records, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (topicExists(topic) && KAFKA.readAll(topic, "read_uncommitted").size() >= records) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the job wrote no records to " + topic);
    }

    private static boolean topicExists(String topic) throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(
                java.util.Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            return admin.listTopics().names().get().contains(topic);
        }
    }
}
