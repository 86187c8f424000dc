package io.github.flinkinfer.jobs;

import io.github.flinkinfer.operators.TokenizedDocument;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The CPU stages at their own parallelism ({@code --tokenize-parallelism N}): dedupe and tokenize
 * run as one task of N subtasks, and their token ids are rebalanced to the inference subtasks,
 * which share slots with them (one slot group, so a job needs max(N, parallelism) slots). In
 * BATCH mode the edge must not block, or inference would start only after the whole corpus was
 * tokenized: {@link FlinkDefaults} sets {@code execution.batch-shuffle-mode:
 * ALL_EXCHANGES_HYBRID_FULL} on the embedded cluster (a cluster's TaskManagers need it in their
 * configuration), so inference reads tokens while tokenize runs. With N = 0 nothing changes:
 * tokenize is chained to inference.
 *
 * <pre>{@code
 * StageParallelism.ofTokenize(tokens, config);
 * StageParallelism.toInference(tokens, config).transform("batch-and-infer", ...);
 * }</pre>
 */
final class StageParallelism {
    private StageParallelism() {}

    /** Gives a dedupe or tokenize operator the tokenize parallelism, when one is set. */
    static void ofTokenize(SingleOutputStreamOperator<?> stage, InferenceConfig config) {
        if (config.tokenizeParallelism() > 0) {
            stage.setParallelism(config.tokenizeParallelism());
        }
    }

    /** The tokens as inference reads them: as they are (chained), or rebalanced to its subtasks. */
    static DataStream<TokenizedDocument> toInference(DataStream<TokenizedDocument> tokens, InferenceConfig config) {
        return config.tokenizeParallelism() > 0 ? tokens.rebalance() : tokens;
    }
}
