package io.github.flinkinfer.jobs.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A 10k-record topic with bad values mixed in, backfilled in BATCH mode with EXACTLY_ONCE sinks:
 * a read_committed consumer sees every id once, records produced after the job started are not
 * read, and every bad value is in the errors output with its reason and topic-partition@offset.
 */
class KafkaBackfillITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void everyIdExactlyOnceAndLateRecordsAreNotRead(@InjectMiniCluster MiniCluster mini) throws Exception {
        KAFKA.createTopic("corpus", 3);
        List<String> values = new ArrayList<>(KafkaJobs.corpus("doc", 10_000));
        Map<String, String> bad = Map.of(
                "this is not json", "malformed_json",
                "{\"id\":\"no-text\"}", "missing_text",
                "{\"id\":\"number\",\"text\":42}", "non_string_text",
                "{\"id\":\"huge\",\"text\":\"" + "x".repeat(5000) + "\"}", "record_too_large");
        values.addAll(bad.keySet());
        values.add("{\"text\":\"a record without an id\"}");
        KAFKA.produce("corpus", values);

        Path out = tmp.resolve("out");
        CompletableFuture<RunSummary> job = KafkaJobs.startAsync(Jobs.options(KafkaJobs.args(
                KAFKA.bootstrapServers(), "--kafka-topic", "corpus", "--output", out.toString(),
                "--run-id", "backfill", "--kafka-output-topic", "embeddings",
                "--kafka-errors-topic", "errors", "--kafka-transactional-id-prefix", "backfill-it",
                "--max-record-bytes", "4096").toArray(String[]::new)));
        KafkaJobs.awaitTask(mini, "read-kafka", Duration.ofSeconds(60));
        KAFKA.produce("corpus", KafkaJobs.corpus("late", 200));
        RunSummary summary = job.get();

        List<String> keys = KAFKA.committedKeys("embeddings");
        assertThat(keys).doesNotHaveDuplicates().hasSize(10_001);
        assertThat(keys).filteredOn(k -> k.startsWith("doc-")).hasSize(10_000);
        assertThat(keys).noneMatch(k -> k.startsWith("late-"));
        assertThat(keys).filteredOn(k -> k.matches("corpus-\\d-\\d+")).hasSize(1);
        assertThat(Outputs.embeddings(out)).hasSize(10_001);
        assertThat(summary.succeeded).isEqualTo(10_001);

        ObjectMapper json = new ObjectMapper();
        List<JsonNode> errors = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.readAll("errors", "read_committed")) {
            errors.add(json.readTree(new String(r.value(), StandardCharsets.UTF_8)));
        }
        assertThat(errors.stream().map(e -> e.get("reason").asText()).collect(Collectors.toList()))
                .containsExactlyInAnyOrderElementsOf(bad.values());
        assertThat(errors).allSatisfy(e -> {
            assertThat(e.get("stage").asText()).isEqualTo("parse");
            assertThat(e.get("source").asText()).matches("corpus-\\d@\\d+");
        });
        assertThat(Outputs.jsonLines(out.resolve("errors"))).hasSize(bad.size());
    }
}
