package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.TokenizedDocument;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The CPU stages at their own parallelism ({@code --tokenize-parallelism N}): dedupe and tokenize
 * run as one task of N subtasks, and their token ids are rebalanced to the inference subtasks,
 * which share slots with them (one slot-sharing group, so a job needs max(N, parallelism)
 * slots). In STREAMING mode the edge is pipelined: inference runs while tokenize does, which is
 * what feeds a GPU. In BATCH mode Flink's blocking exchange makes them run one after the other
 * (each stage with the cores to itself; measured in docs/benchmarks/device-sim.md). With N = 0
 * nothing changes: tokenize is chained to inference.
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
