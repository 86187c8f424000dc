package io.github.flinkinfer.jobs.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Makes a transactional id prefix belong to one run. A claim is a record keyed
 * {@code <prefix>/<run-id>} on a one-partition registry topic; the partition's order decides, so
 * of two jobs starting at once only the first claim wins. A fresh claim is also refused when the
 * broker already knows transactional ids under the prefix (a job that used another registry).
 * The owning run id may claim again, so a run restarted from a savepoint keeps its prefix.
 */
final class TransactionalIdClaims {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TransactionalIdClaims() {}

    /** Claims {@code prefix} for {@code runId}, or throws if another run owns it. */
    static void claim(Properties client, Admin admin, String topic, String prefix, String runId)
            throws ExecutionException, InterruptedException {
        createIfAbsent(admin, topic);
        TopicPartition tp = new TopicPartition(topic, 0);
        String owner = firstClaim(client, tp, prefix);
        if (owner == null) {
            refuseIfUsed(admin, prefix);
            write(client, topic, prefix, runId);
            owner = firstClaim(client, tp, prefix);
        }
        if (!runId.equals(owner)) {
            throw new IllegalStateException("Kafka transactional id prefix '" + prefix
                    + "' belongs to run '" + owner + "' (registry topic " + topic + "); give this job"
                    + " its own --kafka-transactional-id-prefix, or --run-id " + owner + " to resume that run");
        }
    }

    private static void createIfAbsent(Admin admin, String topic) throws ExecutionException, InterruptedException {
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) -1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private static void refuseIfUsed(Admin admin, String prefix) throws ExecutionException, InterruptedException {
        Collection<TransactionListing> all = admin.listTransactions().all().get();
        for (TransactionListing t : all) {
            if (t.transactionalId().startsWith(prefix + "-")) {
                throw new IllegalStateException("Kafka transactional id prefix '" + prefix
                        + "' is already used on the broker (transactional id " + t.transactionalId()
                        + ", state " + t.state() + "); give this job its own --kafka-transactional-id-prefix");
            }
        }
    }

    private static void write(Properties client, String topic, String prefix, String runId)
            throws ExecutionException, InterruptedException {
        Properties p = new Properties();
        p.putAll(client);
        p.put("acks", "all");
        String value = "{\"prefix\":\"" + prefix + "\",\"runId\":\"" + runId + "\",\"claimedAt\":\""
                + Instant.now() + "\"}";
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, bytes(prefix + "/" + runId), bytes(value))).get();
        }
    }

    /** The run id of the first claim on {@code prefix}, or null. */
    private static String firstClaim(Properties client, TopicPartition tp, String prefix) {
        Properties p = new Properties();
        p.putAll(client);
        p.remove("group.id");
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), TIMEOUT).get(tp);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(tp, TIMEOUT) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading registry topic " + tp.topic());
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
                    if (r.offset() < end && key.startsWith(prefix + "/")) {
                        return key.substring(prefix.length() + 1);
                    }
                }
            }
            return null;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
