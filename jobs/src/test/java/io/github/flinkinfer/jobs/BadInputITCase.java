package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A JSONL file mixing valid lines with every kind of bad line: every valid id reaches the
 * outputs, every bad line reaches errors with its reason and position, the job finishes.
 */
class BadInputITCase extends ClusterTestBase {

    @Test
    void everyLineEndsInOutputsOrErrorsWithTheRightReason() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<String> valid = new ArrayList<>();
        Map<Integer, String> expectedReason = new LinkedHashMap<>(); // byte offset of the line → reason
        java.util.function.BiConsumer<String, String> add = (text, reason) -> {
            int at = file.size();
            file.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            file.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8)); // CRLF endings throughout
            if (reason != null) {
                expectedReason.put(at, reason);
            }
        };
        file.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}); // BOM
        for (int i = 0; i < 30; i++) {
            valid.add("ok-" + i);
            add.accept("{\"id\":\"ok-" + i + "\",\"text\":\"valid document number " + i + "\"}", null);
            switch (i) {
                case 1 -> add.accept("{\"id\": \"broken\", \"text\": ", "malformed_json");
                case 2 -> add.accept("[1, 2, 3]", "not_an_object");
                case 3 -> add.accept("{\"text\":\"no id here\"}", "missing_id");
                case 4 -> add.accept("{\"id\":null,\"text\":\"null id\"}", "missing_id");
                case 5 -> add.accept("{\"id\":{\"a\":1},\"text\":\"object id\"}", "invalid_id");
                case 6 -> add.accept("{\"id\":\"no-text\"}", "missing_text");
                case 7 -> add.accept("{\"id\":\"empty\",\"text\":\"\"}", "empty_text");
                case 8 -> add.accept("{\"id\":\"blank\",\"text\":\"  \\t  \"}", "empty_text");
                case 9 -> add.accept("{\"id\":\"number\",\"text\":42}", "non_string_text");
                case 10 -> add.accept("{\"id\":\"nul\",\"text\":\"a\\u0000b\"}", "nul_character");
                case 11 -> add.accept("{\"id\":\"ok-3\",\"text\":\"a second ok-3\"}", "duplicate_id");
                case 12 -> add.accept("{\"id\":\"huge\",\"text\":\"" + "x".repeat(3 << 20) + "\"}",
                        "record_too_large");
                case 13 -> add.accept("", "malformed_json");
                case 14 -> add.accept("{\"id\":\"null-text\",\"text\":null}", "missing_text");
                default -> { }
            }
        }
        // invalid UTF-8: a lone continuation byte inside a string
        int badUtf8At = file.size();
        file.writeBytes("{\"id\":\"bad-utf8\",\"text\":\"caf".getBytes(StandardCharsets.UTF_8));
        file.write(0x80);
        file.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
        expectedReason.put(badUtf8At, "invalid_utf8");

        Path input = tmp.resolve("mixed.jsonl");
        Files.write(input, file.toByteArray());
        Path out = tmp.resolve("out");
        RunSummary summary = MiniClusters.embed(Jobs.options(
                "--input", input.toString(), "--output", out.toString(), "--run-id", "bad",
                "--parallelism", "2", "--max-record-bytes", "1048576",
                "--max-error-rate", "1.0")); // a corpus of bad lines on purpose: past the default budget

        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(valid);
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        Map<Integer, String> actual = errors.stream().collect(Collectors.toMap(
                e -> Integer.parseInt(e.get("source").asText().replaceAll(".*@", "")),
                e -> e.get("reason").asText()));
        assertThat(actual).isEqualTo(expectedReason);
        assertThat(errors).allSatisfy(e -> {
            assertThat(e.get("stage").asText()).isEqualTo("parse");
            assertThat(e.get("source").asText()).matches(".*/mixed\\.jsonl@\\d+") // the whole path
                    .contains(tmp.toString());
            assertThat(e.get("attempt").asInt()).isEqualTo(1);
        });
        // The text never appears in errors: only its length and hash.
        assertThat(errors.toString()).doesNotContain("a second ok-3").doesNotContain("no id here");
        assertThat(summary.succeeded).isEqualTo(valid.size());
        assertThat(summary.failed).as("duplicates are dropped, not failed").isEqualTo(expectedReason.size() - 1);
        assertThat(summary.duplicates).isEqualTo(1);
        // a field that is there but null says so, apart from one that is not there (issue 40)
        List<String> messages = errors.stream().filter(e -> e.get("reason").asText().startsWith("missing_"))
                .map(e -> e.get("message").asText()).toList();
        assertThat(messages).containsExactlyInAnyOrder("no 'id' field", "'id' is null",
                "no 'text' field", "'text' is null");
        assertThat(Outputs.hasInProgressFiles(out)).isFalse();
    }
}
