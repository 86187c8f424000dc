package io.github.flinkinfer.jobs.run;

import io.github.flinkinfer.jobs.run.NetworkMemorySizing.Exchange;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.jobgraph.DistributionPattern;
import org.apache.flink.runtime.jobgraph.JobEdge;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * The exchanges of a job as Flink runs them: the edges of its job graph (after chaining), each
 * with its producer and consumer parallelism and whether it is pipelined or blocking, the input
 * of {@link NetworkMemorySizing}.
 */
public final class JobExchanges {
    private JobExchanges() {}

    /** The exchanges of {@code graph}; vertices without a parallelism of their own get {@code parallelism}. */
    public static List<Exchange> of(StreamGraph graph, int parallelism) {
        return of(graph.getJobGraph(), parallelism);
    }

    /** The exchanges of {@code graph}; vertices without a parallelism of their own get {@code parallelism}. */
    public static List<Exchange> of(JobGraph graph, int parallelism) {
        List<Exchange> exchanges = new ArrayList<>();
        for (JobVertex consumer : graph.getVertices()) {
            for (JobEdge edge : consumer.getInputs()) {
                JobVertex producer = edge.getSource().getProducer();
                exchanges.add(new Exchange(parallelismOf(producer, parallelism), parallelismOf(consumer, parallelism),
                        !edge.getSource().getResultType().isBlockingOrBlockingPersistentResultPartition(),
                        edge.getDistributionPattern() == DistributionPattern.POINTWISE));
            }
        }
        return exchanges;
    }

    private static int parallelismOf(JobVertex v, int parallelism) {
        return v.getParallelism() > 0 ? v.getParallelism() : Math.max(1, parallelism);
    }
}
