package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Jobs;
import org.junit.jupiter.api.Test;

/** Fixing a backfill's range on the driver, without a broker: the failure is one line. */
class PinnedOffsetsTest {

    @Test
    void aBrokerThatCannotBeReachedIsOneLineBeforeSubmission() {
        RunOptions o = Jobs.options("--output", "out", "--kafka-bootstrap-servers", "localhost:1",
                "--kafka-topic", "corpus", "--kafka-property", "default.api.timeout.ms=2000",
                "--kafka-property", "request.timeout.ms=1000");
        assertThatThrownBy(() -> PinnedOffsets.resolve(o.kafka.settings()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Kafka: cannot fix the backfill's offsets on localhost:1 (")
                .hasMessageContaining("TimeoutException")
                .hasMessageContaining("check --kafka-bootstrap-servers")
                .message().doesNotContain("\n");
    }
}
