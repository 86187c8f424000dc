package io.github.flinkinfer.jobs.dataflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.junit.jupiter.api.Test;

/**
 * The pipelined rebalance of a BATCH job flushes its buffers on a timer (a pass-through chained
 * to the producer carries it), while the producer's other, blocking edges keep none, which Flink
 * would refuse.
 */
class StageParallelismTest {

    @Test
    void thePipelinedEdgeFlushesOnATimerAndTheBlockingOnesDoNot() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        DataStream<Integer> source = env.fromData(1, 2, 3);
        StageParallelism.pipelinedRebalance(source).map(x -> x).returns(Types.INT).name("consumer")
                .setParallelism(3).sinkTo(new DiscardingSink<>());
        source.rebalance().map(x -> x).returns(Types.INT).name("blocking-consumer")
                .sinkTo(new DiscardingSink<>()); // a second, blocking edge out of the producer
        StreamGraph graph = env.getStreamGraph();

        StreamNode through = node(graph, StageParallelism.FLUSH_NAME);
        StreamEdge pipelined = through.getOutEdges().get(0);
        assertThat(pipelined.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED);
        assertThat(graph.getStreamNode(pipelined.getTargetId()).getOperatorName()).isEqualTo("consumer");
        assertThat(pipelined.getBufferTimeout()).isEqualTo(100); // execution.buffer-timeout.interval's default
        StreamNode producer = graph.getStreamNode(through.getInEdges().get(0).getSourceId());
        assertThat(producer.getOutEdges()).allSatisfy(e -> assertThat(e.getBufferTimeout()).isEqualTo(-1));
        assertThat(through.getParallelism()).isEqualTo(producer.getParallelism());
        assertThatCode(() -> StreamingJobGraphGenerator.createJobGraph(graph)).doesNotThrowAnyException();
    }

    private static StreamNode node(StreamGraph graph, String name) {
        return graph.getStreamNodes().stream().filter(n -> n.getOperatorName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no operator " + name));
    }
}
