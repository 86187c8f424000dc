package io.github.flinkinfer.jobs.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes a record as a JSON value (public fields, as in the JSONL outputs) keyed by its id. */
final class KeyedJsonSerializer<T> implements KafkaRecordSerializationSchema<T> {
    private static final long serialVersionUID = 1L;
    private final String topic;
    private final SerializableFunction<T, String> key;
    private transient ObjectWriter writer;

    KeyedJsonSerializer(String topic, SerializableFunction<T, String> key) {
        this.topic = topic;
        this.key = key;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long timestamp) {
        if (writer == null) {
            writer = new ObjectMapper().writer();
        }
        String id = key.apply(element);
        try {
            return new ProducerRecord<>(topic, null, timestamp,
                    id == null ? null : id.getBytes(StandardCharsets.UTF_8), writer.writeValueAsBytes(element));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize " + element, e);
        }
    }
}
