package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.DocumentOutcome;
import io.github.flinkinfer.operators.ErrorRecord;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.KeepFirstOutcomesFunction;
import io.github.flinkinfer.operators.Outputs;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;

/**
 * BATCH keep-first without holding inference back: the documents reach tokenize and inference
 * over a pipelined rebalance (one pipelined region with the source, so inference starts with
 * the first records, whatever the corpus size), and the per-document outcomes are deduplicated
 * after inference by {@link KeepFirstOutcomesFunction} (same document kept, same rows, as the
 * dedupe before tokenization). Incremental, chunked and tokenize-parallel runs keep {@link
 * io.github.flinkinfer.operators.DeduplicateFunction} before tokenization (docs/errors.md).
 */
final class KeepFirstAfterInference {
    private KeepFirstAfterInference() {}

    /** Whether the run dedupes after inference. */
    static boolean applies(InferenceConfig config) {
        return config.duplicates() == DuplicatePolicy.KEEP_FIRST && config.pipelinedToInference()
                && !config.incremental() && !config.chunking().enabled() && config.tokenizeParallelism() == 0;
    }

    /**
     * The documents spread over the inference subtasks by an exchange that does not block. The
     * adaptive batch scheduler (BATCH's default) accepts blocking and hybrid edges only, and
     * deploys a consumer after its producers finished, hybrid included; so the job asks for
     * Flink's default scheduler (pipelined regions; the edges after inference stay blocking, so
     * a failure restarts the source's region, not the writers').
     */
    static DataStream<Document> pipelinedRebalance(DataStream<Document> docs) {
        Configuration scheduler = new Configuration();
        scheduler.set(JobManagerOptions.SCHEDULER, JobManagerOptions.SchedulerType.Default);
        docs.getExecutionEnvironment().configure(scheduler);
        return new DataStream<>(docs.getExecutionEnvironment(), new PartitionTransformation<>(
                docs.getTransformation(), new RebalancePartitioner<>(), StreamExchangeMode.PIPELINED));
    }

    /**
     * Keys every document's outcome by id: {@code marks} (one per document), tokenize errors,
     * the results and inference errors of {@code inference}. Adds the kept error rows and the
     * duplicate rows to {@code errors}, tallies dropped duplicates that reached the model, and
     * returns the kept results.
     */
    static DataStream<InferenceResult> dedupe(DataStream<DocumentOutcome> marks,
            DataStream<ErrorRecord> tokenizeErrors, SingleOutputStreamOperator<InferenceResult> inference,
            List<DataStream<ErrorRecord>> errors, Accounting accounting) {
        TypeInformation<DocumentOutcome> type = TypeInformation.of(DocumentOutcome.class);
        DataStream<DocumentOutcome> outcomes = marks
                .union(tokenizeErrors.map(DocumentOutcome::of).returns(type).name("tokenize-error-outcomes"))
                .union(inference.getSideOutput(Outputs.ERRORS).map(DocumentOutcome::of).returns(type)
                        .name("inference-error-outcomes"))
                .union(inference.map(DocumentOutcome::of).returns(type).name("result-outcomes"));
        SingleOutputStreamOperator<InferenceResult> kept = outcomes
                .keyBy(o -> o.id, Types.STRING)
                .process(new KeepFirstOutcomesFunction())
                .returns(TypeInformation.of(InferenceResult.class))
                .name("keep-first-ids")
                .uid("keep-first-ids");
        errors.add(kept.getSideOutput(Outputs.ERRORS));
        accounting.tally(kept.getSideOutput(KeepFirstOutcomesFunction.DROPPED), "dropped-duplicates",
                (l, o) -> {
                    if (o.reachedModel()) {
                        l.addDuplicateInferred(o.result != null);
                    }
                });
        return kept;
    }
}
