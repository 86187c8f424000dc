package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.kafka.KafkaOutputs;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.apache.flink.streaming.api.datastream.DataStream;

/** Embedding runs: vectors to {@code embeddings/} in the chosen formats (index formats too), and to Kafka when asked. */
public final class EmbeddingTask implements InferenceTask {
    @Override
    public String name() {
        return "embed";
    }

    @Override
    public ModelTask modelTask() {
        return ModelTask.EMBEDDING;
    }

    @Override
    public void writeResults(DataStream<InferenceResult> rows, OutputConfig out, Chunking chunking, ModelCard card,
            io.github.flinkinfer.jobs.ledger.Accounting accounting) {
        accounting.tally(rows, "written", (l, r) -> l.addWritten());
        FileOutputs.writeResults(rows, out);
        io.github.flinkinfer.jobs.index.IndexOutputs.writeResults(rows, out);
        KafkaOutputs.writeResults(rows, out);
    }
}
