package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.spec.KafkaSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import picocli.CommandLine.Option;

/**
 * The {@code --kafka-*} options of the embedding job (a picocli mixin of {@code RunOptions}):
 * a bounded topic source, and Kafka sinks next to the file outputs. The CLI edge only: the run
 * reads the immutable {@link KafkaSettings} that {@link #settings} builds. See docs/kafka.md.
 */
public class KafkaOptions {
    /** Broker default {@code transaction.max.timeout.ms} is 15 minutes; stay below it. */
    public static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 600_000;

    @Option(names = "--kafka-bootstrap-servers",
            description = "Kafka brokers (host:port,...). Needed by every other --kafka-* option.")
    public String bootstrapServers;

    @Option(names = "--kafka-topic", split = ",",
            description = "Read these topics as a bounded backfill (comma-separated or repeated).")
    public List<String> topics;

    @Option(names = "--kafka-topic-pattern",
            description = "Read every topic matching this regex (instead of --kafka-topic).")
    public String topicPattern;

    @Option(names = "--kafka-starting-offsets", defaultValue = "earliest",
            description = "Where the backfill starts: earliest, committed (the group's offsets, else"
                    + " earliest) or timestamp:<epoch-ms>. It stops at the latest offsets as of submission"
                    + " (both fixed then). Default: ${DEFAULT-VALUE}.")
    public String startingOffsets;

    @Option(names = "--kafka-group-id", defaultValue = "flink-inference",
            description = "Consumer group (offsets are committed on checkpoints in STREAMING mode)."
                    + " Default: ${DEFAULT-VALUE}.")
    public String groupId;

    @Option(names = "--kafka-output-topic",
            description = "Also write embeddings to this topic (key = input id, value = JSON).")
    public String outputTopic;

    @Option(names = "--kafka-errors-topic",
            description = "Also write the errors output to this topic (key = input id, value = JSON).")
    public String errorsTopic;

    @Option(names = "--kafka-delivery-guarantee", defaultValue = "EXACTLY_ONCE",
            description = "Kafka sinks: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
    public DeliveryGuarantee deliveryGuarantee;

    @Option(names = "--kafka-transactional-id-prefix",
            description = "EXACTLY_ONCE: transactional id prefix, unique per job; a second job"
                    + " with the same prefix is refused. Default: flink-inference-<run-id>.")
    public String transactionalIdPrefix;

    @Option(names = "--kafka-transaction-timeout-ms", defaultValue = "600000",
            description = "EXACTLY_ONCE: transaction.timeout.ms; must be below the broker's"
                    + " transaction.max.timeout.ms and above the checkpoint interval."
                    + " Default: ${DEFAULT-VALUE}.")
    public long transactionTimeoutMs;

    @Option(names = "--kafka-run-registry-topic", defaultValue = "_flink-inference-runs",
            description = "Topic recording which run owns each transactional id prefix."
                    + " Default: ${DEFAULT-VALUE}.")
    public String runRegistryTopic;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "Kafka client property for the source, sinks and admin client (repeat;"
                    + " e.g. security.protocol, sasl.jaas.config). Secrets are never logged.")
    public Map<String, String> properties = new LinkedHashMap<>();

    /** The values given, decided once: what the spec, the sources and the sinks read. */
    public KafkaSettings settings() {
        return new KafkaSettings(bootstrapServers, topics, topicPattern, startingOffsets, groupId,
                outputTopic, errorsTopic, deliveryGuarantee, transactionalIdPrefix, transactionTimeoutMs,
                runRegistryTopic, properties);
    }

    /** Checks the Kafka options together with the job's runtime mode and checkpoint interval. */
    public void validate(boolean streaming, long checkpointIntervalMs) {
        KafkaSettings k = settings();
        if (!k.readsKafka() && !k.writesKafka()) {
            return;
        }
        require(k.bootstrapServers() != null && !k.bootstrapServers().isBlank(),
                "--kafka-bootstrap-servers is required with --kafka-* topics");
        require(k.topics().isEmpty() || k.topicPattern() == null,
                "use --kafka-topic or --kafka-topic-pattern, not both");
        if (k.topicPattern() != null) {
            k.pattern();
        }
        StartingOffsets.parse(k.startingOffsets());
        if (k.writesKafka() && k.exactlyOnce()) {
            require(k.transactionalIdPrefix() == null || k.transactionalIdPrefix().matches("[A-Za-z0-9._-]{1,200}"),
                    "--kafka-transactional-id-prefix may use letters, digits, '.', '_' and '-'");
            require(k.transactionTimeoutMs() > 0, "--kafka-transaction-timeout-ms must be > 0");
            require(!streaming || k.transactionTimeoutMs() > checkpointIntervalMs,
                    "--kafka-transaction-timeout-ms must be above --checkpoint-interval-ms,"
                            + " or transactions expire before their checkpoint commits them");
        }
        require(!k.properties().containsKey("transaction.timeout.ms")
                        && !k.properties().containsKey("transactional.id"),
                "set transactions with --kafka-transaction-timeout-ms / --kafka-transactional-id-prefix");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
