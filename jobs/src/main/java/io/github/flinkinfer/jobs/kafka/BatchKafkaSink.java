package io.github.flinkinfer.jobs.kafka;

import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

/**
 * A {@link KafkaSink} for BATCH jobs: the same writer, transactions and committer, without its
 * post-commit topology, which co-locates each writer subtask with its committer (so a committer
 * can hand finished producers back to a running writer). In BATCH the committer sits behind a
 * blocking edge and starts after the writer has finished, so there is nothing to hand back, and
 * Flink's default scheduler (the pipelined keep-first path) refuses the constraint: "co-located
 * tasks must be in the same pipelined region".
 */
final class BatchKafkaSink<T>
        implements Sink<T>, SupportsWriterState<T, KafkaWriterState>, SupportsCommitter<KafkaCommittable>,
                LineageVertexProvider {
    private static final long serialVersionUID = 1L;
    private final KafkaSink<T> sink;

    BatchKafkaSink(KafkaSink<T> sink) {
        this.sink = sink;
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return ((Sink<T>) sink).createWriter(context);
    }

    @Override
    public StatefulSinkWriter<T, KafkaWriterState> restoreWriter(WriterInitContext context,
            Collection<KafkaWriterState> recoveredState) throws IOException {
        return ((SupportsWriterState<T, KafkaWriterState>) sink).restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return sink.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        return sink.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return sink.getCommittableSerializer();
    }

    @Override
    public LineageVertex getLineageVertex() {
        return sink.getLineageVertex();
    }
}
