package io.github.flinkinfer.jobs.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** A real single-node KRaft broker in the test JVM ({@link KafkaClusterTestKit}), with client helpers. */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
    private KafkaClusterTestKit cluster;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = new KafkaClusterTestKit.Builder(
                        new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                                .setNumControllerNodes(1).build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                // one partition per internal topic: a fresh broker is ready for transactions at once
                .setConfigProp("transaction.state.log.num.partitions", "1")
                .setConfigProp("offsets.topic.num.partitions", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /**
     * Sends the values (null key) round-robin over the topic's partitions, so every partition
     * gets its share (the producer's sticky partitioner may put a quick burst on one), and waits
     * until all are acknowledged.
     */
    public void produce(String topic, List<String> values) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        p.put("acks", "all");
        p.put("linger.ms", "5");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            int partitions = producer.partitionsFor(topic).size();
            for (int i = 0; i < values.size(); i++) {
                String v = values.get(i);
                producer.send(new ProducerRecord<>(topic, i % partitions, null,
                        v == null ? null : v.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    /** Every record of the topic up to its current end, as a consumer with {@code isolation.level}. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, String isolationLevel) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        p.put("isolation.level", isolationLevel);
        p.put("enable.auto.commit", "false");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out reading " + topic);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** The keys (as strings) of every committed record of the topic. */
    public List<String> committedKeys(String topic) {
        return readAll(topic, "read_committed").stream()
                .map(r -> r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8))
                .toList();
    }
}
