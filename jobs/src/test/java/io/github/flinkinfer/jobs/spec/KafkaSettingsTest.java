package io.github.flinkinfer.jobs.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Jobs;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

/** The record the run reads is what the --kafka-* options said, immutable, and keeps secrets out of its text. */
class KafkaSettingsTest {
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"u\" password=\"hunter2-secret\";";

    @Test
    void carriesEveryOption() {
        RunOptions o = Jobs.options("--output", "out", "--kafka-bootstrap-servers", "b1:9092,b2:9092",
                "--kafka-topic-pattern", "docs-.*", "--kafka-starting-offsets", "timestamp:1700000000000",
                "--kafka-group-id", "g1", "--kafka-output-topic", "vec", "--kafka-errors-topic", "err",
                "--kafka-delivery-guarantee", "AT_LEAST_ONCE", "--kafka-transactional-id-prefix", "p1",
                "--kafka-transaction-timeout-ms", "120000", "--kafka-run-registry-topic", "runs",
                "--kafka-property", "security.protocol=SASL_SSL", "--kafka-property", "sasl.jaas.config=" + JAAS);
        o.validate();
        KafkaSettings k = o.kafka.settings();

        assertThat(k.bootstrapServers()).isEqualTo("b1:9092,b2:9092");
        assertThat(k.topics()).isEmpty();
        assertThat(k.topicPattern()).isEqualTo("docs-.*");
        assertThat(k.pattern().matcher("docs-1").matches()).isTrue();
        assertThat(k.startingOffsets()).isEqualTo("timestamp:1700000000000");
        assertThat(k.groupId()).isEqualTo("g1");
        assertThat(k.outputTopic()).isEqualTo("vec");
        assertThat(k.errorsTopic()).isEqualTo("err");
        assertThat(k.deliveryGuarantee()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(k.exactlyOnce()).isFalse();
        assertThat(k.transactionalIdPrefix("r1")).isEqualTo("p1");
        assertThat(k.transactionTimeoutMs()).isEqualTo(120_000);
        assertThat(k.runRegistryTopic()).isEqualTo("runs");
        assertThat(k.readsKafka()).isTrue();
        assertThat(k.writesKafka()).isTrue();
        assertThat(k.clientProperties())
                .containsEntry("bootstrap.servers", "b1:9092,b2:9092")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", JAAS);
    }

    @Test
    void secretsStayOutOfItsText() {
        RunOptions o = Jobs.options("--output", "out", "--kafka-bootstrap-servers", "b:9092",
                "--kafka-topic", "a", "--kafka-property", "sasl.jaas.config=" + JAAS,
                "--kafka-property", "ssl.truststore.password=hunter2-secret");
        KafkaSettings k = o.kafka.settings();

        assertThat(k.toString())
                .doesNotContain("hunter2-secret")
                .contains("sasl.jaas.config=" + Secrets.REDACTED, "ssl.truststore.password=" + Secrets.REDACTED,
                        "topics=[a]", "bootstrapServers=b:9092");
        assertThat(k.properties()).containsEntry("ssl.truststore.password", "hunter2-secret");
    }

    @Test
    void doesNotFollowLaterChangesToTheOptions() {
        RunOptions o = Jobs.options("--output", "out", "--kafka-bootstrap-servers", "b:9092", "--kafka-topic", "a");
        KafkaSettings k = o.kafka.settings();
        o.kafka.topics.add("later");
        o.kafka.properties.put("client.id", "later");

        assertThat(k.topics()).containsExactly("a");
        assertThat(k.properties()).isEmpty();
        assertThatThrownBy(() -> k.topics().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> k.properties().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void withoutKafkaOptionsNothingIsReadOrWritten() {
        KafkaSettings k = Jobs.options("--output", "out", "--input", "in.jsonl").kafka.settings();
        assertThat(k.readsKafka()).isFalse();
        assertThat(k.writesKafka()).isFalse();
        assertThat(k.topics()).isEmpty();
    }
}
