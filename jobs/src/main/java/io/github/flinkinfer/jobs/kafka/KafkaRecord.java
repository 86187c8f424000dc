package io.github.flinkinfer.jobs.kafka;

/**
 * One Kafka record's value as raw bytes, with its position, before decoding: bad bytes become
 * error records in the parser instead of reader failures. A Flink POJO.
 */
public class KafkaRecord {
    public String topic;
    public int partition;
    public long offset;
    /** The value's bytes; null when {@link #oversized} or for a tombstone. */
    public byte[] value;
    /** Length of the value in bytes (also when oversized and not kept); -1 for a tombstone. */
    public int valueLength;
    public boolean oversized;

    public KafkaRecord() {}

    /** {@code topic-partition@offset}, the errors output's {@code source}. */
    public String position() {
        return topic + "-" + partition + "@" + offset;
    }

    /** {@code topic-partition-offset}, the id of a record that has none. */
    public String defaultId() {
        return topic + "-" + partition + "-" + offset;
    }
}
