package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.io.ParsedInput;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.util.ExceptionUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A BATCH keep-first Kafka backfill decides its duplicates on an id pass, a second read of the
 * offsets fixed before submission: the results edge into the filter is pipelined; the outputs and
 * error rows are those of the dedupe before tokenization (duplicate ids across partitions, bad
 * values written once); records produced after the offsets were fixed are read by neither pass;
 * records retention deletes before a pass reads them fail the job instead of being skipped; a
 * compacted topic is read once.
 */
class KafkaIdPassITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void aBatchKeepFirstBackfillHasAnIdPassAndWritesResultsWhileInferenceRuns() throws Exception {
        KAFKA.createTopic("graph-corpus", 2);
        KAFKA.produce("graph-corpus", KafkaJobs.corpus("doc", 10));
        StreamGraph graph = batchGraph("graph-corpus");

        StreamNode idsParse = node(graph, "ids-parse-kafka");
        StreamNode marks = node(graph, "mark-positions");
        assertThat(graph.getSourceIDs()).extracting(id -> graph.getStreamNode(id).getOperatorName())
                .contains("Source: read-kafka", "Source: ids-read-kafka");
        assertThat(idsParse.getOutEdges()).extracting(e -> e.getTargetId()).contains(marks.getId());
        // the duplicates are dropped before tokenize, the dropped positions reach that filter
        // pipelined, and no result waits for a filter of its own
        StreamNode decide = node(graph, "keep-first-ids");
        StreamNode filter = node(graph, "drop-duplicate-documents");
        assertThat(decide.getOutEdges()).filteredOn(e -> e.getTargetId() == filter.getId())
                .singleElement().satisfies(e -> assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.PIPELINED));
        assertThat(graph.getStreamNodes()).extracting(StreamNode::getOperatorName)
                .doesNotContain("drop-duplicate-results");
    }

    /** Compaction between the passes could give them different records: a compacted topic is read once. */
    @Test
    void aCompactedTopicIsReadOnceAndItsResultsWaitForTheMarks() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("compacted-corpus", 2, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)))).all().get();
        }
        KAFKA.produce("compacted-corpus", KafkaJobs.corpus("doc", 10));
        StreamGraph graph = batchGraph("compacted-corpus");

        assertThat(graph.getStreamNodes()).noneMatch(n -> n.getOperatorName().contains("ids-"));
        StreamNode filter = node(graph, "drop-duplicate-results");
        assertThat(node(graph, "batch-and-infer").getOutEdges()).filteredOn(e -> e.getTargetId() == filter.getId())
                .singleElement().satisfies(e -> assertThat(e.getExchangeMode()).isEqualTo(StreamExchangeMode.BATCH));
    }

    @Test
    void bothPassesReadTheFixedRangeAndKeepTheRowsOfTheDedupeBeforeTokenization(
            @InjectMiniCluster MiniCluster mini) throws Exception {
        String topic = "dup-corpus";
        KAFKA.createTopic(topic, 3);
        // value i goes to partition i % 3: d-i to i % 3, then one bad value, then d-0..d-29 again to (i + 1) % 3
        List<String> values = new ArrayList<>(KafkaJobs.corpus("d", 300));
        values.add("this is not json");
        values.addAll(KafkaJobs.corpus("d", 30));
        values.add("{\"id\":\"no-text\"}");
        KAFKA.produce(topic, values);

        Run before = run(topic, "before", "--duplicates", "keep_first_before_inference");
        Path out = tmp.resolve("after");
        CompletableFuture<RunSummary> job = KafkaJobs.startAsync(options(topic, out, "after"));
        KafkaJobs.awaitTask(mini, "ids-read-kafka", Duration.ofSeconds(60));
        // after the offsets were fixed: new ids, and copies of ids the range holds once
        List<String> late = new ArrayList<>(KafkaJobs.corpus("late", 100));
        late.addAll(KafkaJobs.corpus("d", 300).subList(100, 150));
        KAFKA.produce(topic, late);
        Run after = new Run(out, "after", job.get());

        assertThat(after.kept()).hasSize(300).allSatisfy((id, at) -> assertThat(id).startsWith("d-"));
        assertThat(after.kept()).isEqualTo(before.kept());
        assertThat(after.errors()).isEqualTo(before.errors());
        assertThat(after.errors().values()).filteredOn(e -> e.equals("parse/duplicate_id")).hasSize(30);
        assertThat(after.errors().values()).filteredOn(e -> !e.equals("parse/duplicate_id"))
                .containsExactlyInAnyOrder("parse/malformed_json", "parse/missing_text"); // once, not per pass
        // the first position of each duplicate id is kept: d-2 at partition 0 (offset 101), not at 2 (offset 0)
        assertThat(after.kept().get("d-2")).isEqualTo(topic + "-0@101");
        assertThat(after.errors()).containsEntry(topic + "-2@0", "parse/duplicate_id");
        assertThat(after.summary().succeeded).isEqualTo(300);
        assertThat(after.summary().duplicates).isEqualTo(30);
        assertThat(after.summary().reconciliation.ok()).isTrue();
        assertThat(KAFKA.readAll(topic, "read_committed")).hasSize(values.size() + late.size());
    }

    @Test
    void recordsRetentionDeletesBeforeAPassReadsThemFailTheJob() throws Exception {
        String topic = "retention-corpus";
        KAFKA.createTopic(topic, 1);
        KAFKA.produce(topic, KafkaJobs.corpus("r", 20));
        RunOptions o = options(topic, tmp.resolve("retention"), "retention");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        ParsedInput input = KafkaInputs.read(env, o.spec("embed", env).input()); // fixes offsets 0..20
        input.documents().sinkTo(new DiscardingSink<>());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            admin.deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(5))).all().get();
        }
        assertThatThrownBy(env::execute).satisfies(e -> assertThat(
                ExceptionUtils.findThrowable(e, OffsetOutOfRangeException.class)).isPresent());
    }

    private static RunOptions options(String topic, Path out, String runId, String... extra) {
        List<String> args = KafkaJobs.args(KAFKA.bootstrapServers(), "--kafka-topic", topic,
                "--output", out.toString(), "--run-id", runId, "--runtime-mode", "BATCH", "--max-error-rate", "1.0");
        args.addAll(List.of(extra));
        return Jobs.options(args.toArray(String[]::new));
    }

    private Run run(String topic, String runId, String... extra) throws Exception {
        Path out = tmp.resolve(runId);
        return new Run(out, runId, MiniClusters.embed(options(topic, out, runId, extra)));
    }

    /** The BATCH keep-first job's graph over {@code topic}, built (offsets fixed) but not run. */
    private StreamGraph batchGraph(String topic) throws Exception {
        RunOptions o = options(topic, tmp.resolve(topic), topic);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        InferencePipeline.build(env, o.spec("embed", env),
                ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()), new EmbeddingTask());
        return env.getStreamGraph();
    }

    private static StreamNode node(StreamGraph graph, String name) {
        return graph.getStreamNodes().stream().filter(n -> n.getOperatorName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no operator " + name));
    }

    /** kept: id → position of its row; errors: position → stage/reason. */
    private record Run(Map<String, String> kept, Map<String, String> errors, RunSummary summary) {
        Run(Path out, String runId, RunSummary summary) {
            this(kept(out), errors(out), summary);
        }

        private static Map<String, String> kept(Path out) {
            Map<String, String> kept = new TreeMap<>();
            Outputs.embeddings(out).forEach((id, r) -> kept.put(id, r.get("source").toString()));
            return kept;
        }

        private static Map<String, String> errors(Path out) {
            return Outputs.jsonLines(out.resolve("errors")).stream().collect(Collectors.toMap(
                    e -> e.get("source").asText(),
                    (JsonNode e) -> e.get("stage").asText() + "/" + e.get("reason").asText(),
                    (x, y) -> {
                        throw new AssertionError("two error rows for one position: " + x + ", " + y);
                    },
                    TreeMap::new));
        }
    }
}
