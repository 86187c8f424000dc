package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Writes embeddings (or the moderation job's verdicts) and errors to topics with {@link
 * KafkaSink}, next to the file outputs. With EXACTLY_ONCE each sink gets its own transactional id
 * prefix ({@code <prefix>-embeddings} or {@code <prefix>-verdicts}, {@code <prefix>-errors}) and a {@code transaction.timeout.ms} below the broker's maximum.
 *
 * <pre>{@code
 * KafkaOutputs.writeResults(results, spec.output());
 * }</pre>
 */
public final class KafkaOutputs {
    private KafkaOutputs() {}

    public static void writeResults(DataStream<InferenceResult> results, OutputConfig out) {
        write(results, out, "embeddings", r -> r.id);
    }

    /**
     * Writes {@code rows} as JSON values keyed by {@code key} to {@code --kafka-output-topic}, if
     * set; {@code what} names the sink and its transactional id suffix (e.g. {@code verdicts}).
     */
    public static <T> void write(DataStream<T> rows, OutputConfig out, String what,
            SerializableFunction<T, String> key) {
        String topic = out.kafka().outputTopic();
        if (topic != null) {
            rows.sinkTo(sink(out, what, new KeyedJsonSerializer<>(topic, key)))
                    .name("write-" + what + "-kafka")
                    .uid("write-" + what + "-kafka");
        }
    }

    public static void writeErrors(DataStream<ErrorRecord> errors, OutputConfig out) {
        String topic = out.kafka().errorsTopic();
        if (topic != null) {
            SerializableFunction<ErrorRecord, String> key = e -> e.id;
            errors.sinkTo(sink(out, "errors", new KeyedJsonSerializer<>(topic, key)))
                    .name("write-errors-kafka")
                    .uid("write-errors-kafka");
        }
    }

    private static <T> KafkaSink<T> sink(OutputConfig out, String what, KeyedJsonSerializer<T> ser) {
        KafkaSettings k = out.kafka();
        Properties props = k.clientProperties();
        KafkaSinkBuilder<T> builder =
                KafkaSink.<T>builder()
                        .setKafkaProducerConfig(props)
                        .setBootstrapServers(k.bootstrapServers())
                        .setDeliveryGuarantee(k.deliveryGuarantee())
                        .setRecordSerializer(ser);
        if (k.exactlyOnce()) {
            builder.setTransactionalIdPrefix(k.transactionalIdPrefix(out.runId()) + "-" + what)
                    .setProperty("transaction.timeout.ms", Long.toString(k.transactionTimeoutMs()));
        }
        return builder.build();
    }
}
