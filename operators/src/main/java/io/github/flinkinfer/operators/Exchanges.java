package io.github.flinkinfer.operators;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;

/**
 * One exchange between two stages with its mode set, which the DataStream API has no call for:
 * Flink's BATCH mode makes every exchange blocking (the consumer starts once the producer has
 * finished), where a pipelined one lets both run at once. A pipelined exchange asks for Flink's
 * default scheduler (pipelined regions): the adaptive batch scheduler, BATCH's default, accepts
 * blocking and hybrid edges only, and deploys a consumer after its producers finished.
 *
 * <pre>{@code
 * DataStream<Document> toTokenize = Exchanges.pipelined(documents, new RebalancePartitioner<>());
 * }</pre>
 */
public final class Exchanges {
    private Exchanges() {}

    /** {@code records} over an exchange of {@code partitioner} that does not block in BATCH mode. */
    public static <T> DataStream<T> pipelined(DataStream<T> records, StreamPartitioner<T> partitioner) {
        return of(records, partitioner, StreamExchangeMode.PIPELINED);
    }

    /** {@code records} over an exchange of {@code partitioner} and {@code mode}. */
    public static <T> DataStream<T> of(DataStream<T> records, StreamPartitioner<T> partitioner,
            StreamExchangeMode mode) {
        if (mode == StreamExchangeMode.PIPELINED) {
            Configuration scheduler = new Configuration();
            scheduler.set(JobManagerOptions.SCHEDULER, JobManagerOptions.SchedulerType.Default);
            records.getExecutionEnvironment().configure(scheduler);
        }
        return new DataStream<>(records.getExecutionEnvironment(),
                new PartitionTransformation<>(records.getTransformation(), partitioner, mode));
    }
}
