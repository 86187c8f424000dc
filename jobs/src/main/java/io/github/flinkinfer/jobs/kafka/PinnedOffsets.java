package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.spec.KafkaSettings;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumerator;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backfill's range, fixed once on the driver before submission: every partition of the topics
 * (or of the topics the pattern matches now) with its first offset to read and the offset to stop
 * before (the end as of now), so that every source built from it (the main read and the id pass,
 * {@link KafkaInputs}) reads the same records at the same positions. The start is the connector's
 * own {@code --kafka-starting-offsets} ({@link StartingOffsets}) asked through the connector's own
 * {@link KafkaSourceEnumerator.PartitionOffsetsRetrieverImpl}; where the connector would leave it
 * to the reader (earliest, committed) it is resolved here the way the reader would: earliest = the
 * log start, committed = the group's offset, else the log start. A start below the log start (a
 * committed offset retention has since deleted) is the log start, one past the end reads nothing.
 *
 * <pre>{@code
 * PinnedOffsets range = PinnedOffsets.resolve(spec.input().kafka());
 * builder.setPartitions(range.partitions()).setStartingOffsets(range.startInitializer())
 *         .setBounded(range.stopInitializer());
 * }</pre>
 *
 * @param start per partition, the first offset read
 * @param stop per partition, the offset the read stops before (the partition's end when fixed)
 * @param compacted whether a topic read compacts (or its policy cannot be read): then the range is read once
 */
record PinnedOffsets(Map<TopicPartition, Long> start, Map<TopicPartition, Long> stop, boolean compacted) {
    private static final Logger LOG = LoggerFactory.getLogger(PinnedOffsets.class);
    private static final long TIMEOUT_SECONDS = 30;

    PinnedOffsets {
        start = Map.copyOf(start);
        stop = Map.copyOf(stop);
    }

    /** Asks the brokers once; a broker that cannot be reached or a missing topic is one clear line. */
    static PinnedOffsets resolve(KafkaSettings k) {
        try (AdminClient admin = AdminClient.create(k.clientProperties())) {
            Set<TopicPartition> partitions = partitions(admin, k);
            OffsetsInitializer.PartitionOffsetsRetriever broker =
                    new KafkaSourceEnumerator.PartitionOffsetsRetrieverImpl(admin, k.groupId());
            Map<TopicPartition, Long> first = broker.beginningOffsets(partitions);
            Map<TopicPartition, Long> end = broker.endOffsets(partitions);
            Map<TopicPartition, Long> asked =
                    StartingOffsets.parse(k.startingOffsets()).getPartitionOffsets(partitions, broker);
            Map<TopicPartition, Long> committed = asked.containsValue(KafkaPartitionSplit.COMMITTED_OFFSET)
                    ? broker.committedOffsets(partitions) : Map.of();
            Map<TopicPartition, Long> start = new HashMap<>();
            for (TopicPartition tp : partitions) {
                long from = asked.get(tp);
                if (from == KafkaPartitionSplit.EARLIEST_OFFSET) {
                    from = first.get(tp);
                } else if (from == KafkaPartitionSplit.LATEST_OFFSET) {
                    from = end.get(tp);
                } else if (from == KafkaPartitionSplit.COMMITTED_OFFSET) { // else earliest, as the reader resets
                    Long c = committed.get(tp);
                    from = c == null ? first.get(tp) : c;
                }
                start.put(tp, Math.min(Math.max(from, first.get(tp)), end.get(tp)));
            }
            return new PinnedOffsets(start, end, compacted(admin, partitions));
        } catch (TimeoutException e) {
            throw unreachable(k, "no answer within " + TIMEOUT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(k, "interrupted");
        } catch (ExecutionException | RuntimeException e) {
            Throwable cause = ExceptionUtils.stripExecutionException(e);
            if (cause instanceof IllegalArgumentException bad) { // --kafka-starting-offsets
                throw bad;
            }
            Throwable root = ExceptionUtils.findThrowable(cause, KafkaException.class)
                    .map(Throwable.class::cast).orElse(cause);
            throw unreachable(k, root.getClass().getSimpleName() + ": " + root.getMessage());
        }
    }

    /** The partitions read (a set of their own: the source is serialized with it). */
    Set<TopicPartition> partitions() {
        return new HashSet<>(stop.keySet());
    }

    /** Records in the range: an upper bound (compaction and transaction markers read as none). */
    long records() {
        long n = 0;
        for (Map.Entry<TopicPartition, Long> e : stop.entrySet()) {
            n += e.getValue() - start.get(e.getKey());
        }
        return n;
    }

    /**
     * The start, for {@code setStartingOffsets}. No reset: a record of the range that retention
     * deletes before a source reads it fails the job (the consumer's out-of-range error) instead
     * of the source skipping to the new log start, so neither pass reads less than the other.
     */
    @SuppressWarnings("deprecation") // the connector's API still takes OffsetResetStrategy
    OffsetsInitializer startInitializer() {
        return OffsetsInitializer.offsets(start, OffsetResetStrategy.NONE);
    }

    /** The stop, for {@code setBounded}. */
    OffsetsInitializer stopInitializer() {
        return OffsetsInitializer.offsets(stop);
    }

    /**
     * Whether a topic read compacts ({@code cleanup.policy} has {@code compact}), or its policy
     * cannot be read (then assumed): compaction may remove a record of the range between the two
     * passes without the out-of-range error a deleted one gives, so such a range is read once.
     */
    private static boolean compacted(AdminClient admin, Set<TopicPartition> partitions)
            throws InterruptedException, TimeoutException {
        List<ConfigResource> topics = partitions.stream().map(TopicPartition::topic).distinct()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
        try {
            for (Config c : admin.describeConfigs(topics).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).values()) {
                ConfigEntry policy = c.get(TopicConfig.CLEANUP_POLICY_CONFIG);
                if (policy != null && policy.value() != null
                        && policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                    return true;
                }
            }
            return false;
        } catch (ExecutionException e) {
            LOG.warn("Kafka: cannot read the topics' cleanup.policy ({}); read once, as if compacted",
                    e.getCause().getClass().getSimpleName());
            return true;
        }
    }

    private static Set<TopicPartition> partitions(AdminClient admin, KafkaSettings k)
            throws InterruptedException, ExecutionException, TimeoutException {
        Set<String> topics = new HashSet<>(k.topics());
        if (k.topicPattern() != null) { // the connector's rule: the whole name matches, internal topics not listed
            for (String name : admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                if (k.pattern().matcher(name).matches()) {
                    topics.add(name);
                }
            }
        }
        Set<TopicPartition> partitions = new HashSet<>();
        for (TopicDescription d : admin.describeTopics(topics).allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).values()) {
            d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
        }
        return partitions;
    }

    private static IllegalStateException unreachable(KafkaSettings k, String why) {
        return new IllegalStateException("Kafka: cannot fix the backfill's offsets on " + k.bootstrapServers()
                + " (" + why + "); check --kafka-bootstrap-servers, the topics and the client properties");
    }
}
