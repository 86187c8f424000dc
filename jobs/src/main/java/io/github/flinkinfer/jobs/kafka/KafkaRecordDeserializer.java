package io.github.flinkinfer.jobs.kafka;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Keeps each value's bytes and position; never fails, so a bad value cannot stop the source. */
final class KafkaRecordDeserializer implements KafkaRecordDeserializationSchema<KafkaRecord> {
    private static final long serialVersionUID = 1L;
    private final int maxRecordBytes;

    KafkaRecordDeserializer(int maxRecordBytes) {
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<KafkaRecord> out) {
        KafkaRecord r = new KafkaRecord();
        r.topic = record.topic();
        r.partition = record.partition();
        r.offset = record.offset();
        byte[] value = record.value();
        r.valueLength = value == null ? -1 : value.length;
        r.oversized = value != null && value.length > maxRecordBytes;
        r.value = r.oversized ? null : value;
        out.collect(r);
    }

    @Override
    public TypeInformation<KafkaRecord> getProducedType() {
        return TypeInformation.of(KafkaRecord.class);
    }
}
