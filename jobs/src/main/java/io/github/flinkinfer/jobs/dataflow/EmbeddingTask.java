package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.index.IndexOutputs;
import io.github.flinkinfer.jobs.index.IndexSteps;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.kafka.KafkaOutputs;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The {@code embed} kind: a vector per item; post-process adds the rows an incremental run
 * carried over and, with {@code --doc-pooling}, one pooled row per document ({@link
 * IndexSteps#pool}); written to {@code embeddings/} in the chosen formats (index formats too), and
 * to Kafka when asked.
 */
public final class EmbeddingTask implements TaskKind<InferenceResult> {
    @Override
    public String name() {
        return "embed";
    }

    @Override
    public ModelTask modelTask() {
        return ModelTask.EMBEDDING;
    }

    @Override
    public DataStream<InferenceResult> postProcess(InferencePipeline.Inferred inferred, InferenceConfig config,
            ModelCard card) {
        DataStream<InferenceResult> all = inferred.results();
        for (DataStream<InferenceResult> carried : inferred.carried()) {
            all = all.union(carried);
        }
        DataStream<InferenceResult> pooled = IndexSteps.pool(inferred.modelOutputs(), config.chunking(),
                inferred.ledger());
        return pooled == null ? all : all.union(pooled);
    }

    @Override
    public void write(DataStream<InferenceResult> rows, OutputConfig out, Accounting ledger) {
        ledger.tally(rows, "written", (l, r) -> l.addWritten());
        FileOutputs.writeResults(rows, out);
        IndexOutputs.writeResults(rows, out);
        KafkaOutputs.writeResults(rows, out);
    }
}
