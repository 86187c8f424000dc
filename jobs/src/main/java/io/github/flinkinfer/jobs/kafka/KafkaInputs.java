package io.github.flinkinfer.jobs.kafka;

import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.spec.KafkaSettings;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads topics as a bounded backfill over a range fixed on the driver before submission ({@link
 * PinnedOffsets}: from the chosen start to the latest offsets as of then; records produced later
 * are not read), parsed in the reading subtask. The range can be read twice with the same records
 * at the same positions, so a BATCH keep-first run decides its duplicates on an id pass of its own
 * ({@link ParsedInput#again}: sources named {@code ids-…}, whose parse errors are not written),
 * reading the range from the brokers a second time. A compacted topic is read once ({@link
 * PinnedOffsets#compacted}): compaction between the passes could give them different records.
 *
 * <pre>{@code
 * ParsedInput input = KafkaInputs.read(env, spec.input());
 * }</pre>
 */
public final class KafkaInputs {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaInputs.class);

    private KafkaInputs() {}

    public static ParsedInput read(StreamExecutionEnvironment env, InputConfig in) {
        PinnedOffsets range = PinnedOffsets.resolve(in.kafka());
        LOG.info("Kafka: backfill of {} partition(s), at most {} record(s), fixed before submission{}",
                range.partitions().size(), range.records(), range.compacted() ? "; a compacted topic: read once" : "");
        SingleOutputStreamOperator<Document> parsed = read(env, in, range, "", 0);
        List<DataStream<ErrorRecord>> errors = List.of(parsed.getSideOutput(Outputs.ERRORS));
        if (range.compacted()) {
            return new ParsedInput(parsed, errors);
        }
        return new ParsedInput(parsed, errors, parallelism -> read(env, in, range, "ids-", parallelism));
    }

    /** One source over {@code range} and its parser, named with {@code prefix}, at {@code parallelism} (0: the job's). */
    private static SingleOutputStreamOperator<Document> read(StreamExecutionEnvironment env, InputConfig in,
            PinnedOffsets range, String prefix, int parallelism) {
        KafkaSettings k = in.kafka();
        KafkaSource<KafkaRecord> source = KafkaSource.<KafkaRecord>builder()
                .setProperties(k.clientProperties())
                .setGroupId(k.groupId())
                .setPartitions(range.partitions())
                .setStartingOffsets(range.startInitializer())
                .setBounded(range.stopInitializer())
                .setDeserializer(new KafkaRecordDeserializer(in.maxRecordBytes()))
                // a client id of its own per source, so the two passes' consumers are told apart
                .setClientIdPrefix(clientIdPrefix(k, prefix))
                // Only read committed data: an upstream transactional producer's aborted records never count.
                .setProperty("isolation.level", k.properties().getOrDefault("isolation.level", "read_committed"))
                .build();
        DataStreamSource<KafkaRecord> records =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), prefix + "read-kafka");
        records.uid(prefix + "read-kafka");
        SingleOutputStreamOperator<Document> parsed = records
                .process(new KafkaRecordParser(in.idField(), in.textField(), in.maxRecordBytes()))
                .name(prefix + "parse-kafka")
                .uid(prefix + "parse-kafka");
        return ParsedInput.atParallelism(records, parsed, parallelism);
    }

    /** The connector's default (the property, else the group id), {@code -ids} for the id pass. */
    private static String clientIdPrefix(KafkaSettings k, String prefix) {
        String base = k.properties().getOrDefault(KafkaSourceOptions.CLIENT_ID_PREFIX.key(), k.groupId());
        return prefix.isEmpty() ? base : base + "-" + prefix.replace("-", "");
    }
}
