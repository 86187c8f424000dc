package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * What a source stage yields: parsed documents, and the errors of the records it could not parse;
 * {@code again}, where the inputs can be read twice (files; a Kafka backfill, whose offsets are
 * fixed before submission, unless a topic is compacted), adds a second source over the same inputs (same reader, same parser:
 * the same documents at the same positions) at the parallelism it is given (0: the job's) and
 * returns its documents, whose parse errors are not written twice.
 */
public record ParsedInput(DataStream<Document> documents, List<DataStream<ErrorRecord>> errors,
        IntFunction<DataStream<Document>> again) {

    /** Inputs read once (a compacted Kafka topic). */
    public ParsedInput(DataStream<Document> documents, List<DataStream<ErrorRecord>> errors) {
        this(documents, errors, null);
    }

    /** Whether {@link #again} can read the same documents a second time. */
    public boolean readableTwice() {
        return again != null;
    }

    /** A reader and its chained parser at {@code parallelism}, when set (above 0): for {@link #again}. */
    public static SingleOutputStreamOperator<Document> atParallelism(DataStreamSource<?> source,
            SingleOutputStreamOperator<Document> parsed, int parallelism) {
        if (parallelism > 0) {
            source.setParallelism(parallelism);
            parsed.setParallelism(parallelism);
        }
        return parsed;
    }
}
