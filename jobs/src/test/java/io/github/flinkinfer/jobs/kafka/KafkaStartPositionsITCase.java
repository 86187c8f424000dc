package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The source's start and subscription options against a real broker, each run as a BATCH backfill
 * with file outputs: {@code --kafka-starting-offsets committed} (the group's committed offsets,
 * else earliest), {@code --kafka-starting-offsets timestamp:<ms>} and {@code --kafka-topic-pattern}.
 * Every test asserts the exact set of output ids and an empty errors output.
 */
class KafkaStartPositionsITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void committedStartsAtTheGroupsOffsets() throws Exception {
        String topic = "committed-corpus";
        KAFKA.createTopic(topic, 3);
        produceWithoutIds(topic, 3, 10); // offsets 0..9 in each partition
        String group = "resume-group";
        Map<TopicPartition, Long> committed = Map.of(
                new TopicPartition(topic, 0), 3L,   // mid-partition
                new TopicPartition(topic, 1), 0L,   // the very start
                new TopicPartition(topic, 2), 10L); // the end: nothing left to read
        commit(group, committed);
        assertThat(committedOffsets(group)).isEqualTo(committed);

        Path out = tmp.resolve("committed");
        RunSummary summary = embed(out, "committed", "--kafka-topic", topic,
                "--kafka-starting-offsets", "committed", "--kafka-group-id", group);

        Set<String> expected = new TreeSet<>();
        committed.forEach((tp, from) -> {
            for (long o = from; o < 10; o++) {
                expected.add(topic + "-" + tp.partition() + "-" + o);
            }
        });
        assertThat(expected).hasSize(17);
        assertOutputs(out, summary, expected);
    }

    @Test
    void committedWithoutOffsetsStartsAtEarliest() throws Exception {
        String topic = "fresh-corpus";
        KAFKA.createTopic(topic, 2);
        produceWithoutIds(topic, 2, 6);
        String group = "fresh-group";
        assertThat(committedOffsets(group)).isEmpty();

        Path out = tmp.resolve("fresh");
        RunSummary summary = embed(out, "fresh", "--kafka-topic", topic,
                "--kafka-starting-offsets", "committed", "--kafka-group-id", group);

        Set<String> all = new TreeSet<>();
        for (int p = 0; p < 2; p++) {
            for (int o = 0; o < 6; o++) {
                all.add(topic + "-" + p + "-" + o);
            }
        }
        assertOutputs(out, summary, all);
        // BATCH mode has no checkpoints, so the backfill commits nothing to the group (docs/kafka.md)
        assertThat(committedOffsets(group)).isEmpty();
    }

    @Test
    void timestampReadsOnlyRecordsAtOrAfterTheBoundary() throws Exception {
        String topic = "timed-corpus";
        KAFKA.createTopic(topic, 3);
        // Recent timestamps (within the broker's retention and timestamp-skew limits),
        // non-decreasing within each partition.
        long now = System.currentTimeMillis();
        long oldBase = now - 600_000;
        long boundary = now - 300_000;
        long newBase = boundary; // a record exactly at the boundary is included
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Set<String> expected = new TreeSet<>();
        // partition 0: old then new; partition 1: only old; partition 2: only new
        for (int i = 0; i < 8; i++) {
            records.add(record(topic, 0, oldBase + i, "old-0-" + i));
        }
        for (int i = 0; i < 8; i++) {
            records.add(record(topic, 0, newBase + i, "new-0-" + i));
            expected.add("new-0-" + i);
        }
        for (int i = 0; i < 5; i++) {
            records.add(record(topic, 1, oldBase + 1_000 + i, "old-1-" + i));
        }
        for (int i = 0; i < 5; i++) {
            records.add(record(topic, 2, newBase + 1_000 + i, "new-2-" + i));
            expected.add("new-2-" + i);
        }
        send(records);

        Path out = tmp.resolve("timestamp");
        RunSummary summary = embed(out, "timestamp", "--kafka-topic", topic,
                "--kafka-starting-offsets", "timestamp:" + boundary);

        assertOutputs(out, summary, expected);
    }

    @Test
    void topicPatternReadsEveryMatchingTopicAndNoOther() throws Exception {
        KAFKA.createTopic("events-a", 2);
        KAFKA.createTopic("events-b", 1);
        KAFKA.createTopic("other-c", 1);
        KAFKA.createTopic("old-events-d", 1); // contains a match, but the regex must match the whole name
        produceWithoutIds("events-a", 2, 4);
        produceWithoutIds("events-b", 1, 3);
        produceWithoutIds("other-c", 1, 5);
        produceWithoutIds("old-events-d", 1, 2);

        Path out = tmp.resolve("pattern");
        RunSummary summary = embed(out, "pattern", "--kafka-topic-pattern", "events-.*");

        Set<String> expected = new TreeSet<>();
        for (int p = 0; p < 2; p++) {
            for (int o = 0; o < 4; o++) {
                expected.add("events-a-" + p + "-" + o);
            }
        }
        for (int o = 0; o < 3; o++) {
            expected.add("events-b-0-" + o);
        }
        assertOutputs(out, summary, expected);
    }

    private RunSummary embed(Path out, String runId, String... source) throws Exception {
        List<String> extra = new ArrayList<>(List.of(source));
        extra.addAll(List.of("--output", out.toString(), "--run-id", runId));
        return MiniClusters.embed(Jobs.options(
                KafkaJobs.args(KAFKA.bootstrapServers(), extra.toArray(String[]::new)).toArray(String[]::new)));
    }

    private static void assertOutputs(Path out, RunSummary summary, Set<String> expectedIds) {
        assertThat(new TreeSet<>(Outputs.embeddings(out).keySet())).isEqualTo(expectedIds);
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
        assertThat(summary.succeeded).isEqualTo(expectedIds.size());
        assertThat(summary.failed).isZero();
    }

    /** {@code perPartition} values without an id field to each partition: ids become topic-partition-offset. */
    private static void produceWithoutIds(String topic, int partitions, int perPartition) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(new ProducerRecord<>(topic, p, null, bytes(
                        "{\"text\":\"short note " + i + " about " + (i % 2 == 0 ? "rivers" : "mountains") + "\"}")));
            }
        }
        send(records);
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, int partition, long timestamp, String id) {
        return new ProducerRecord<>(topic, partition, timestamp, null,
                bytes("{\"id\":\"" + id + "\",\"text\":\"short note about " + id + "\"}"));
    }

    /** Sends in order, one in flight, and waits for every acknowledgement. */
    private static void send(List<ProducerRecord<byte[], byte[]>> records) {
        Properties p = new Properties();
        p.put("bootstrap.servers", KAFKA.bootstrapServers());
        p.put("acks", "all");
        p.put("max.in.flight.requests.per.connection", "1");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                producer.send(r);
            }
            producer.flush();
        }
    }

    private static void commit(String group, Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> o = new HashMap<>();
        offsets.forEach((tp, offset) -> o.put(tp, new OffsetAndMetadata(offset)));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.alterConsumerGroupOffsets(group, o).all().get();
        }
    }

    private static Map<TopicPartition, Long> committedOffsets(String group) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                    .forEach((tp, m) -> {
                        if (m != null) {
                            out.put(tp, m.offset());
                        }
                    });
            return out;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
