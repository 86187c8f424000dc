package io.github.flinkinfer.jobs.kafka;

import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Parses {@code --kafka-starting-offsets}: {@code earliest}, {@code committed}, {@code timestamp:<ms>}. */
final class StartingOffsets {
    private StartingOffsets() {}

    @SuppressWarnings("deprecation") // the connector's API still takes OffsetResetStrategy
    static OffsetsInitializer parse(String spec) {
        String s = spec.trim();
        if (s.equalsIgnoreCase("earliest")) {
            return OffsetsInitializer.earliest();
        }
        if (s.equalsIgnoreCase("committed")) {
            return OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
        }
        if (s.toLowerCase(java.util.Locale.ROOT).startsWith("timestamp:")) {
            try {
                return OffsetsInitializer.timestamp(Long.parseLong(s.substring("timestamp:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("timestamp:<epoch-ms> needs a number: " + spec);
            }
        }
        throw new IllegalArgumentException(
                "--kafka-starting-offsets must be earliest, committed or timestamp:<epoch-ms>, not " + spec);
    }
}
