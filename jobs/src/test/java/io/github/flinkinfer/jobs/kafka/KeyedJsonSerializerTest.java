package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** A Kafka output record: key = id, value = JSON, and never Flink's element timestamp. */
class KeyedJsonSerializerTest {
    /** A row as the sinks see one: public fields. */
    public static final class Row {
        public String id = "doc-1";
        public int length = 3;
    }

    @Test
    void keysByIdAndLeavesTheTimestampToTheProducer() {
        SerializableFunction<Row, String> key = r -> r.id;
        KeyedJsonSerializer<Row> ser = new KeyedJsonSerializer<>("out", key);
        // a row emitted when a key ends in BATCH carries the end of input
        ProducerRecord<byte[], byte[]> atEnd = ser.serialize(new Row(), null, Long.MAX_VALUE);
        ProducerRecord<byte[], byte[]> read = ser.serialize(new Row(), null, 1_700_000_000_000L);

        assertThat(atEnd.topic()).isEqualTo("out");
        assertThat(new String(atEnd.key(), StandardCharsets.UTF_8)).isEqualTo("doc-1");
        assertThat(new String(atEnd.value(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"doc-1\",\"length\":3}");
        assertThat(atEnd.timestamp()).isNull();
        assertThat(read.timestamp()).isNull();
        assertThat(atEnd.partition()).isNull();
    }
}
