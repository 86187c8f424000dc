package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Reads topics as a bounded backfill: from the chosen start to the latest offsets as of job start
 * (records produced later are not read), parsed in the reading subtask.
 *
 * <pre>{@code
 * ParsedInput input = KafkaInputs.read(env, spec.input());
 * }</pre>
 */
public final class KafkaInputs {
    private KafkaInputs() {}

    public static ParsedInput read(StreamExecutionEnvironment env, InputConfig in) {
        KafkaSettings k = in.kafka();
        KafkaSourceBuilder<KafkaRecord> builder =
                KafkaSource.<KafkaRecord>builder()
                        .setProperties(k.clientProperties())
                        .setGroupId(k.groupId())
                        .setStartingOffsets(StartingOffsets.parse(k.startingOffsets()))
                        .setBounded(OffsetsInitializer.latest())
                        .setDeserializer(new KafkaRecordDeserializer(in.maxRecordBytes()));
        if (k.topicPattern() != null) {
            builder.setTopicPattern(k.pattern());
        } else {
            builder.setTopics(k.topics());
        }
        // Only read committed data: an upstream transactional producer's aborted records never count.
        builder.setProperty("isolation.level", k.properties().getOrDefault("isolation.level", "read_committed"));
        SingleOutputStreamOperator<Document> parsed =
                env.fromSource(builder.build(), WatermarkStrategy.noWatermarks(), "read-kafka")
                        .uid("read-kafka")
                        .process(new KafkaRecordParser(in.idField(), in.textField(), in.maxRecordBytes()))
                        .name("parse-kafka")
                        .uid("parse-kafka");
        return new ParsedInput(parsed, List.of(parsed.getSideOutput(Outputs.ERRORS)));
    }
}
