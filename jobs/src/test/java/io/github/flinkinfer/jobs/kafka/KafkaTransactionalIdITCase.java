package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXACTLY_ONCE start-up checks against the broker: a second job with a taken transactional id
 * prefix is refused before it is submitted (the owning run may claim again, to resume), a prefix
 * some other producer already uses is refused, and so is a transaction timeout above the broker's.
 */
class KafkaTransactionalIdITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void secondJobWithTheSamePrefixIsRejectedAtStart() throws Exception {
        KAFKA.createTopic("tx-corpus", 1);
        KAFKA.produce("tx-corpus", KafkaJobs.corpus("doc", 50));
        assertThat(MiniClusters.embed(job("first", tmp.resolve("first"))).succeeded).isEqualTo(50);

        assertThatThrownBy(() -> MiniClusters.embed(job("second", tmp.resolve("second"))))
                .hasMessageContaining("prefix 'shared' belongs to run 'first'");
        assertThat(Outputs.committed(tmp.resolve("second").resolve("embeddings"))).isEmpty();
        assertThat(KAFKA.committedKeys("tx-embeddings")).hasSize(50);
        // The owning run may claim its prefix again (a restart from a savepoint).
        KafkaPreflight.check(job("first", tmp.resolve("again")).kafka.settings(), "first");
    }

    @Test
    void prefixAlreadyUsedByAnotherProducerIsRejected() throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put("transactional.id", "foreign-0-1");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("foreign-topic", "k", "v"));
            producer.commitTransaction();
        }
        RunOptions o = job("mine", tmp.resolve("mine"));
        o.kafka.transactionalIdPrefix = "foreign";
        assertThatThrownBy(() -> KafkaPreflight.check(o.kafka.settings(), "mine"))
                .hasMessageContaining("already used on the broker");
    }

    @Test
    void transactionTimeoutAboveTheBrokerMaximumIsRejected() {
        RunOptions o = job("slow", tmp.resolve("slow"));
        o.kafka.transactionalIdPrefix = "slow";
        o.kafka.transactionTimeoutMs = 3_600_000; // Flink's default; stock brokers allow 15 minutes
        assertThatThrownBy(() -> KafkaPreflight.check(o.kafka.settings(), "slow"))
                .hasMessageContaining("above the broker's transaction.max.timeout.ms 900000");
    }

    private static RunOptions job(String runId, Path out) {
        return Jobs.options(KafkaJobs.args(KAFKA.bootstrapServers(), "--kafka-topic", "tx-corpus",
                "--output", out.toString(), "--run-id", runId, "--kafka-output-topic", "tx-embeddings",
                "--kafka-transactional-id-prefix", "shared").toArray(String[]::new));
    }
}
