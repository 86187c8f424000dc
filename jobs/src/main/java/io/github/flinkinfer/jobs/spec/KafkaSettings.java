package io.github.flinkinfer.jobs.spec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * The run's Kafka source and sinks, decided once from the {@code --kafka-*} options ({@code
 * KafkaOptions#settings}) so the spec and the dataflow never hold the mutable picocli mixin.
 * {@link #toString} redacts secret client properties ({@link Secrets}).
 *
 * <pre>{@code
 * KafkaSettings k = spec.input().kafka();
 * if (k.readsKafka()) { ... KafkaSource.builder().setProperties(k.clientProperties()) ... }
 * }</pre>
 *
 * @param bootstrapServers brokers (host:port,...); null when no Kafka option is given
 * @param topics topics read as a bounded backfill; empty when none
 * @param topicPattern regex of the topics read instead of {@code topics}; null when none
 * @param startingOffsets where the backfill starts ({@code earliest}, {@code committed},
 *     {@code timestamp:<ms>}), parsed by {@code StartingOffsets}
 * @param groupId the source's consumer group
 * @param outputTopic topic of the embeddings (or verdicts); null = not written to Kafka
 * @param errorsTopic topic of the errors output; null = not written to Kafka
 * @param deliveryGuarantee the Kafka sinks' guarantee
 * @param transactionalIdPrefix EXACTLY_ONCE: the prefix asked for; null = derived from the run id
 * @param transactionTimeoutMs EXACTLY_ONCE: the sinks' {@code transaction.timeout.ms}
 * @param runRegistryTopic topic recording which run owns each transactional id prefix
 * @param properties client properties for the source, sinks and admin client (may hold secrets)
 */
public record KafkaSettings(
        String bootstrapServers,
        List<String> topics,
        String topicPattern,
        String startingOffsets,
        String groupId,
        String outputTopic,
        String errorsTopic,
        DeliveryGuarantee deliveryGuarantee,
        String transactionalIdPrefix,
        long transactionTimeoutMs,
        String runRegistryTopic,
        Map<String, String> properties) {

    public KafkaSettings {
        topics = topics == null ? List.of() : List.copyOf(topics);
        properties = properties == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** True when the job reads a topic instead of files. */
    public boolean readsKafka() {
        return !topics.isEmpty() || topicPattern != null;
    }

    /** True when any Kafka sink is configured. */
    public boolean writesKafka() {
        return outputTopic != null || errorsTopic != null;
    }

    public boolean exactlyOnce() {
        return deliveryGuarantee == DeliveryGuarantee.EXACTLY_ONCE;
    }

    /** The prefix in effect: the option, else one derived from the run id. */
    public String transactionalIdPrefix(String runId) {
        return transactionalIdPrefix != null ? transactionalIdPrefix : "flink-inference-" + runId;
    }

    /** Client properties: bootstrap servers plus every {@code --kafka-property}. */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty("bootstrap.servers", bootstrapServers);
        return p;
    }

    public Pattern pattern() {
        return Pattern.compile(topicPattern);
    }

    /** Every component, with the values of secret-looking properties redacted. */
    @Override
    public String toString() {
        return "KafkaSettings[bootstrapServers=" + bootstrapServers + ", topics=" + topics
                + ", topicPattern=" + topicPattern + ", startingOffsets=" + startingOffsets
                + ", groupId=" + groupId + ", outputTopic=" + outputTopic + ", errorsTopic=" + errorsTopic
                + ", deliveryGuarantee=" + deliveryGuarantee + ", transactionalIdPrefix=" + transactionalIdPrefix
                + ", transactionTimeoutMs=" + transactionTimeoutMs + ", runRegistryTopic=" + runRegistryTopic
                + ", properties=" + Secrets.redact(properties) + "]";
    }
}
