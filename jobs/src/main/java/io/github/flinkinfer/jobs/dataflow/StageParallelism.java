package io.github.flinkinfer.jobs.dataflow;

import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.operators.Exchanges;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.TokenizedDocument;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;

/**
 * The CPU stages at their own parallelism ({@code --tokenize-parallelism N}): dedupe (or the
 * position marks of the keep-first after inference) and tokenize run as one task of N subtasks,
 * and their token ids are rebalanced to the inference subtasks, which share slots with them (one
 * slot-sharing group, so a job needs max(N, parallelism) slots). The edge is pipelined, so
 * inference runs while tokenize does, which is what feeds a GPU: in STREAMING mode as every
 * edge is, in BATCH mode where nothing before it blocks ({@link #pipelinedRebalance}, Flink's
 * default scheduler); behind a sorted dedupe before tokenization they
 * overlap once the corpus is sorted. Where the job cannot take that exchange (a hybrid shuffle, a
 * Kafka sink), Flink's BATCH exchange makes the stages run one after the other. Under keep-first after inference, the result filter and the writers
 * after it run at N too (the corpus is written by N cores, not by the device's few subtasks);
 * otherwise the results are rebalanced to N writer subtasks ({@link #toWriters}).
 * With N = 0 nothing changes: tokenize is chained to inference, and the writers to it.
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

    /**
     * The results as the writers read them: where tokenize has subtasks of its own and nothing
     * after inference decides on the results (ALLOW, the dedupe before tokenization, STREAMING),
     * they are rebalanced to that many writer subtasks (pipelined where the tokens reach inference
     * pipelined), so the writes leave the device's subtasks and run beside inference; otherwise
     * they stay as they are, chained to inference. (The keep-first after inference spreads them
     * to its own filters instead: {@link KeepFirstAfterInference#dedupe}.)
     */
    static DataStream<InferenceResult> toWriters(DataStream<InferenceResult> results, InferenceConfig config) {
        if (config.tokenizeParallelism() == 0) {
            return results;
        }
        DataStream<InferenceResult> spread = config.pipelinedToInference()
                ? pipelinedRebalance(results) : results.rebalance();
        SingleOutputStreamOperator<InferenceResult> writers = spread
                .map(r -> r)
                .returns(TypeInformation.of(InferenceResult.class))
                .name("to-writers")
                .uid("to-writers");
        writers.setParallelism(config.tokenizeParallelism());
        return writers;
    }

    /**
     * The tokens as inference reads them: as they are (chained), or rebalanced to its subtasks,
     * over a pipelined exchange in BATCH mode where the documents reached tokenize over one.
     */
    static DataStream<TokenizedDocument> toInference(DataStream<TokenizedDocument> tokens, InferenceConfig config) {
        if (config.tokenizeParallelism() == 0) {
            return tokens;
        }
        return config.pipelinedToInference() ? pipelinedRebalance(tokens) : tokens.rebalance();
    }

    /**
     * The records spread round-robin over the next stage's subtasks by an exchange that does not
     * block: the documents to tokenize and inference, and with {@code --tokenize-parallelism} the
     * tokens to inference and the results to their writers ({@link Exchanges#pipelined}).
     */
    static <T> DataStream<T> pipelinedRebalance(DataStream<T> records) {
        return Exchanges.pipelined(records, new RebalancePartitioner<>());
    }
}
