package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;
import org.junit.jupiter.api.Test;

/**
 * {@code --tokenize-parallelism}: the id pass's position marks (keep-first), the filter of
 * duplicate documents and tokenize run at their own parallelism, and tokenize hands its tokens to
 * the inference subtasks over a rebalance, pipelined in BATCH mode; the writers run at that
 * parallelism too; the run loses nothing, drops the duplicate once, and writes the embeddings the
 * chained job writes, bit for bit.
 */
class TokenizeParallelismITCase extends ClusterTestBase {

    @Test
    void tokenizeAndDedupeRunAtTheirOwnParallelismBesideInference() throws Exception {
        StreamGraph graph = batchGraph();
        StreamNode marks = node(graph, "mark-positions");
        StreamNode tokenize = node(graph, "tokenize");
        StreamNode infer = node(graph, "batch-and-infer");
        assertThat(marks.getParallelism()).isEqualTo(3); // the id pass: a second read of the files
        assertThat(graph.getStreamNodes()).filteredOn(n -> n.getOperatorName().startsWith("ids-"))
                .isNotEmpty().allSatisfy(n -> assertThat(n.getParallelism()).isEqualTo(3));
        assertThat(tokenize.getParallelism()).isEqualTo(3);
        assertThat(infer.getParallelism()).isEqualTo(1);
        // pipelined: inference runs while the corpus is tokenized, in BATCH mode too
        assertThat(tokenize.getOutEdges()).filteredOn(e -> e.getTargetId() == infer.getId())
                .singleElement().satisfies(e -> {
                    assertThat(e.getPartitioner()).isInstanceOf(RebalancePartitioner.class);
                    assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED);
                });
        // the tally of the tokenizer's outputs stays chained to it: same parallelism, no shuffle
        assertThat(node(graph, "ledger-model-inputs").getParallelism()).isEqualTo(3);
        // the id pass's marks reach the decision, and its dropped positions the documents' filter,
        // over pipelined exchanges: one region, deployed at once, nothing waits for the id pass's end
        StreamNode decide = node(graph, "keep-first-ids");
        assertThat(marks.getOutEdges()).filteredOn(e -> e.getTargetId() == decide.getId())
                .singleElement().satisfies(e -> assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED));
        StreamNode filter = node(graph, "drop-duplicate-documents");
        assertThat(filter.getParallelism()).isEqualTo(3);
        assertThat(decide.getOutEdges()).filteredOn(e -> e.getTargetId() == filter.getId())
                .singleElement().satisfies(e -> assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED));
        // the documents and the dropped positions partitioned alike, not broadcast: each filter
        // subtask holds the dropped positions of its own documents
        assertThat(filter.getInEdges()).hasSize(2)
                .allSatisfy(e -> assertThat(e.getPartitioner()).hasToString("POSITION"));
        // the duplicates are dropped before tokenize: the results spread to 3 writers, as without dedupe
        assertThat(graph.getStreamNodes()).extracting(StreamNode::getOperatorName)
                .doesNotContain("drop-duplicate-results", "drop-duplicate-errors");
        StreamNode writers = node(graph, "to-writers");
        assertThat(writers.getParallelism()).isEqualTo(3);
        assertThat(infer.getOutEdges()).filteredOn(e -> e.getTargetId() == writers.getId())
                .singleElement().satisfies(e -> assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED));
    }

    /** Without the keep-first after inference, the results still leave the device's subtasks. */
    @Test
    void withDuplicatesAllowedTheResultsSpreadToTokenizeManyWriters() throws Exception {
        StreamGraph graph = batchGraph("--duplicates", "allow");
        StreamNode infer = node(graph, "batch-and-infer");
        StreamNode writers = node(graph, "to-writers");
        assertThat(infer.getParallelism()).isEqualTo(1);
        assertThat(writers.getParallelism()).isEqualTo(3);
        assertThat(infer.getOutEdges()).filteredOn(e -> e.getTargetId() == writers.getId())
                .singleElement().satisfies(e -> {
                    assertThat(e.getPartitioner()).isInstanceOf(RebalancePartitioner.class);
                    assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED); // beside inference
                });
        assertThat(writers.getOutEdges()).extracting(e -> graph.getStreamNode(e.getTargetId()))
                .filteredOn(n -> n.getOperatorName().startsWith("write-embeddings-parquet"))
                .singleElement().satisfies(n -> assertThat(n.getParallelism()).isEqualTo(3));
        // the metrics rows stay with inference
        assertThat(graph.getStreamNodes()).filteredOn(n -> n.getOperatorName().startsWith("write-metrics"))
                .allSatisfy(n -> assertThat(n.getParallelism()).isEqualTo(1));
    }

    @Test
    void aRunWithItsOwnTokenizeSubtasksWritesWhatTheChainedRunWrites() throws Exception {
        Map<String, String> corpus = Corpus.sample(240);
        Path input = writeCorpus(corpus);
        String first = corpus.keySet().iterator().next();
        Files.writeString(input, "{\"id\":\"" + first + "\",\"text\":\"a second record with the same id\"}\n",
                StandardOpenOption.APPEND);

        RunSummary split = embed(input, tmp.resolve("split"), "split", "--parallelism", "1",
                "--tokenize-parallelism", "2", "--max-batch-tokens", "512");
        RunSummary chained = embed(input, tmp.resolve("chained"), "chained", "--parallelism", "2",
                "--max-batch-tokens", "512");

        assertThat(split.reconciliation.ok()).isTrue();
        assertThat(split.succeeded).isEqualTo(corpus.size());
        assertThat(split.duplicates).isEqualTo(1);
        assertThat(split.bound.tokenizeChained()).isFalse();
        assertThat(chained.bound.tokenizeChained()).isTrue();
        Map<String, GenericRecord> a = Outputs.embeddings(tmp.resolve("split"));
        Map<String, GenericRecord> b = Outputs.embeddings(tmp.resolve("chained"));
        assertThat(a.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        assertThat(vectors(a)).isEqualTo(vectors(b));
    }

    /**
     * STREAMING with tokenize subtasks of its own: the results go to 2 writer subtasks
     * ({@code to-writers}), which commit on checkpoints and leave a receipt each; the same rows.
     */
    @Test
    void aStreamingRunWritesFromTheTokenizeManyWriters() throws Exception {
        Map<String, String> corpus = Corpus.sample(120);
        Path input = writeCorpus(corpus);
        Path out = tmp.resolve("streaming");
        RunSummary streaming = embed(input, out, "streaming", "--parallelism", "1",
                "--tokenize-parallelism", "2", "--max-batch-tokens", "512", "--runtime-mode", "STREAMING",
                "--checkpoint-interval-ms", "200");
        RunSummary chained = embed(input, tmp.resolve("chained"), "chained", "--parallelism", "2",
                "--max-batch-tokens", "512");

        assertThat(streaming.reconciliation.ok()).isTrue();
        assertThat(streaming.succeeded).isEqualTo(corpus.size());
        assertThat(Outputs.hasInProgressFiles(out)).isFalse();
        assertThat(out.resolve("embeddings/_committed-streaming.write-embeddings-parquet-0-of-1"))
                .as("receipt").content().contains("\"committers\":2");
        assertThat(chained.succeeded).isEqualTo(corpus.size());
        Map<String, GenericRecord> a = Outputs.embeddings(out);
        Map<String, GenericRecord> b = Outputs.embeddings(tmp.resolve("chained"));
        assertThat(a.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        for (String id : corpus.keySet()) { // other batches in STREAMING: other padding
            assertThat(io.github.flinkinfer.runtime.Vectors.cosine(Outputs.vector(a.get(id)), Outputs.vector(b.get(id))))
                    .as(id).isGreaterThan(0.9999);
        }
    }

    private static Map<String, String> vectors(Map<String, GenericRecord> rows) {
        return rows.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> String.valueOf(e.getValue().get("embedding")), (x, y) -> x, TreeMap::new));
    }

    /** The BATCH job's graph with one inference subtask and 3 tokenize subtasks, plus {@code extra}. */
    private StreamGraph batchGraph(String... extra) throws Exception {
        Path input = writeCorpus(Corpus.sample(10));
        String[] args = {"--input", input.toString(), "--output", tmp.resolve("out").toString(),
                "--parallelism", "1", "--tokenize-parallelism", "3", "--runtime-mode", "BATCH"};
        RunOptions o = Jobs.options(args, extra);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.setRuntimeMode(org.apache.flink.api.common.RuntimeExecutionMode.BATCH);
        InferencePipeline.build(env, o.spec("embed", env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                new EmbeddingTask());
        return env.getStreamGraph();
    }

    private static StreamNode node(StreamGraph graph, String name) {
        return graph.getStreamNodes().stream().filter(n -> n.getOperatorName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no operator " + name));
    }
}
