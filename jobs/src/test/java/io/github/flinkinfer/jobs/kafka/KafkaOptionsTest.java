package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.jobs.testutils.Jobs;
import org.junit.jupiter.api.Test;

/** Validation of the --kafka-* options, without a broker. */
class KafkaOptionsTest {
    private static final String[] BASE = {"--output", "out", "--kafka-bootstrap-servers", "b:9092"};

    private static RunOptions options(String... extra) {
        return Jobs.options(BASE, extra);
    }

    @Test
    void defaults() {
        RunOptions o = options("--kafka-topic", "a,b");
        o.validate();
        KafkaSettings k = o.kafka.settings();
        assertThat(k.topics()).containsExactly("a", "b");
        assertThat(k.readsKafka()).isTrue();
        assertThat(k.writesKafka()).isFalse();
        assertThat(k.exactlyOnce()).isTrue();
        assertThat(k.transactionalIdPrefix("r1")).isEqualTo("flink-inference-r1");
        assertThat(k.transactionTimeoutMs()).isLessThan(900_000);
        assertThat(k.groupId()).isEqualTo("flink-inference");
        assertThat(k.startingOffsets()).isEqualTo("earliest");
        assertThat(k.runRegistryTopic()).isEqualTo("_flink-inference-runs");
        assertThat(k.properties()).isEmpty();
    }

    @Test
    void rejectsBadCombinations() {
        assertThatThrownBy(() -> options().validate()).hasMessageContaining("--input or --kafka-topic");
        assertThatThrownBy(() -> options("--kafka-topic", "a", "--input", "x.jsonl").validate())
                .hasMessageContaining("--input or --kafka-topic");
        assertThatThrownBy(() -> options("--kafka-topic", "a", "--kafka-topic-pattern", "a.*").validate())
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> options("--kafka-topic", "a", "--kafka-starting-offsets", "latest").validate())
                .hasMessageContaining("earliest, committed or timestamp");
        assertThatThrownBy(() -> options("--kafka-topic", "a", "--kafka-output-topic", "o",
                        "--kafka-transactional-id-prefix", "bad prefix").validate())
                .hasMessageContaining("transactional-id-prefix");
        assertThatThrownBy(() -> options("--kafka-topic", "a", "--kafka-output-topic", "o",
                        "--runtime-mode", "STREAMING", "--checkpoint-interval-ms", "900000").validate())
                .hasMessageContaining("above --checkpoint-interval-ms");
        assertThatThrownBy(() -> options("--kafka-topic", "a",
                        "--kafka-property", "transaction.timeout.ms=1").validate())
                .hasMessageContaining("--kafka-transaction-timeout-ms");
    }

    @Test
    void startingOffsets() {
        assertThat(StartingOffsets.parse("timestamp:1700000000000")).isNotNull();
        assertThat(StartingOffsets.parse("committed")).isNotNull();
        assertThatThrownBy(() -> StartingOffsets.parse("timestamp:soon")).hasMessageContaining("number");
    }
}
