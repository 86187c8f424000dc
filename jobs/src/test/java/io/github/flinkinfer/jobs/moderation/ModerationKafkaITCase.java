package io.github.flinkinfer.jobs.moderation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.kafka.KafkaBroker;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A moderation backfill that publishes its verdicts: {@code moderate --kafka-output-topic} writes
 * one JSON verdict per email, keyed by id, exactly once (read_committed), matching the file
 * results verdict for verdict; a malformed line goes to the errors topic.
 */
class ModerationKafkaITCase extends ClusterTestBase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @Test
    void verdictsGoToTheTopicExactlyOnceAndMatchTheFiles() throws Exception {
        List<String> lines = Files.readAllLines(SpamAssassinSplit.heldOut()).subList(0, 150);
        Path input = tmp.resolve("emails.jsonl");
        Files.write(input, lines);
        Files.writeString(input, "{\"id\": \"broken\", \"text\": \n", java.nio.file.StandardOpenOption.APPEND);
        KAFKA.createTopic("verdicts", 2);
        KAFKA.createTopic("moderation-errors", 1);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(
                "--input", input.toString(), "--output", out.toString(), "--run-id", "kafka",
                "--model", ModerationJob.DEFAULT_MODEL, "--parallelism", "2", "--output-format", "jsonl",
                "--progress-seconds", "0", "--kafka-bootstrap-servers", KAFKA.bootstrapServers(),
                "--kafka-output-topic", "verdicts", "--kafka-errors-topic", "moderation-errors",
                "--kafka-transactional-id-prefix", "moderation-it");
        RunSummary summary = ModerationJob.run(
                o, o.environment());

        Map<String, Boolean> fromFiles = new HashMap<>();
        for (JsonNode n : Outputs.jsonLines(out.resolve(ModerationTask.RESULTS_DIR))) {
            fromFiles.put(n.get("id").asText(), n.get("flagged").asBoolean());
        }
        assertThat(fromFiles).hasSize(150);

        ObjectMapper json = new ObjectMapper();
        List<ConsumerRecord<byte[], byte[]>> records = KAFKA.readAll("verdicts", "read_committed");
        Map<String, Boolean> fromTopic = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            JsonNode v = json.readTree(r.value());
            String key = new String(r.key(), StandardCharsets.UTF_8);
            assertThat(v.get("id").asText()).isEqualTo(key);
            assertThat(fromTopic.put(key, v.get("flagged").asBoolean())).as("duplicate " + key).isNull();
        }
        assertThat(fromTopic).isEqualTo(fromFiles);
        assertThat(fromTopic).containsValue(true).containsValue(false);

        List<ConsumerRecord<byte[], byte[]>> errors = KAFKA.readAll("moderation-errors", "read_committed");
        assertThat(errors).hasSize(1);
        assertThat(json.readTree(errors.get(0).value()).get("stage").asText()).isEqualTo("parse");
        assertThat(summary.succeeded).isEqualTo(150);
        assertThat(summary.failed).isEqualTo(1);
    }
}
