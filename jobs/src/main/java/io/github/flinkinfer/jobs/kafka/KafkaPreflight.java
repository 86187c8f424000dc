package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.jobs.spec.Secrets;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks on the driver, before the job is submitted: logs the Kafka settings (secrets redacted),
 * refuses a {@code transaction.timeout.ms} above the broker's maximum, and claims the
 * transactional id prefix for this run ({@link TransactionalIdClaims}).
 */
public final class KafkaPreflight {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaPreflight.class);

    private KafkaPreflight() {}

    public static void check(KafkaSettings k, String runId) {
        Properties client = k.clientProperties();
        LOG.info("Kafka: topics={} pattern={} start={} output={} errors={} guarantee={} client={}",
                k.topics(), k.topicPattern(), k.startingOffsets(), k.outputTopic(), k.errorsTopic(),
                k.deliveryGuarantee(), Secrets.redact(client));
        if (!k.writesKafka() || !k.exactlyOnce()) {
            return;
        }
        String prefix = k.transactionalIdPrefix(runId);
        try (Admin admin = Admin.create(client)) {
            long max = brokerTransactionMax(admin);
            if (max > 0 && k.transactionTimeoutMs() > max) {
                throw new IllegalArgumentException("--kafka-transaction-timeout-ms " + k.transactionTimeoutMs()
                        + " is above the broker's transaction.max.timeout.ms " + max);
            }
            TransactionalIdClaims.claim(client, admin, k.runRegistryTopic(), prefix, runId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while claiming " + prefix, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("Kafka check failed: " + e.getCause(), e.getCause());
        }
        LOG.info("Kafka: transactional id prefix '{}' belongs to run {}", prefix, runId);
    }

    /**
     * Records between the earliest and the latest offsets of the named topics' partitions, as
     * fixed now (the bounded backfill stops at the latest); -1 for a topic pattern or when the
     * broker cannot be asked. An estimate for the progress line: compaction and transaction
     * markers make it an upper bound, later starting offsets read less.
     */
    public static long estimateRecords(KafkaSettings k) {
        if (k.topics().isEmpty()) {
            return -1;
        }
        try (Admin admin = Admin.create(k.clientProperties())) {
            java.util.Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> earliest =
                    new java.util.HashMap<>();
            java.util.Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest =
                    new java.util.HashMap<>();
            for (var d : admin.describeTopics(k.topics()).allTopicNames().get(30, java.util.concurrent.TimeUnit.SECONDS).values()) {
                for (var p : d.partitions()) {
                    var tp = new org.apache.kafka.common.TopicPartition(d.name(), p.partition());
                    earliest.put(tp, org.apache.kafka.clients.admin.OffsetSpec.earliest());
                    latest.put(tp, org.apache.kafka.clients.admin.OffsetSpec.latest());
                }
            }
            var from = admin.listOffsets(earliest).all().get(30, java.util.concurrent.TimeUnit.SECONDS);
            var to = admin.listOffsets(latest).all().get(30, java.util.concurrent.TimeUnit.SECONDS);
            long total = 0;
            for (var tp : to.keySet()) {
                total += to.get(tp).offset() - from.get(tp).offset();
            }
            return total;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.info("Kafka: no record estimate for the progress line ({})", e.toString());
            return -1;
        }
    }

    /** The broker's {@code transaction.max.timeout.ms}, or -1 when it cannot be read. */
    private static long brokerTransactionMax(Admin admin) {
        try {
            Collection<Node> nodes = admin.describeCluster().nodes().get();
            ConfigResource broker =
                    new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodes.iterator().next().id()));
            Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
            ConfigEntry entry = config.get("transaction.max.timeout.ms");
            return entry == null ? -1 : Long.parseLong(entry.value());
        } catch (Exception e) {
            LOG.warn("Kafka: cannot read the broker's transaction.max.timeout.ms ({}); not checked",
                    e.getClass().getSimpleName());
            return -1;
        }
    }
}
