package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.chunk.ContentHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Two directories, each with a {@code part.jsonl}: every position names its file's whole path,
 * so the two files' error rows are distinct and each joins back to its own file and byte offset, and
 * keep-first dedupe of an id in both files keeps the one in the first path, whatever arrives first.
 */
class SourcePositionsITCase extends ClusterTestBase {
    @Test
    void sameNamedFilesInTwoDirectoriesGiveDistinctPositions() throws Exception {
        Path a = part("a");
        Path b = part("b");
        Path out = tmp.resolve("out");
        RunSummary summary = MiniClusters.embed(Jobs.options("--input", a.getParent() + "," + b.getParent(),
                "--output", out.toString(), "--run-id", "pos", "--parallelism", "2",
                "--max-error-rate", "1.0")); // bad lines on purpose

        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        List<JsonNode> malformed = errors.stream().filter(e -> e.get("reason").asText().equals("malformed_json")).toList();
        assertThat(malformed).hasSize(2);
        assertThat(malformed.get(0).get("source").asText()).isNotEqualTo(malformed.get(1).get("source").asText());
        for (JsonNode e : malformed) { // joins back: the line at the position's file and offset is the hashed input
            Path file = file(e.get("source").asText());
            assertThat(file).isIn(a, b);
            long offset = offset(e.get("source").asText());
            assertThat(offset).isEqualTo(offsetOfLine(file, 2));
            String rest = Files.readString(file).substring((int) offset); // ASCII: bytes are chars
            assertThat(e.get("inputSha256").asText()).isEqualTo(ContentHash.sha256(rest.substring(0, rest.indexOf('\n'))));
        }
        JsonNode duplicate = errors.stream().filter(e -> e.get("reason").asText().equals("duplicate_id"))
                .findFirst().orElseThrow();
        assertThat(file(duplicate.get("source").asText())).isEqualTo(b);
        assertThat(duplicate.get("message").asText()).contains(a.toString() + "@" + offsetOfLine(a, 3));
        assertThat(errors).hasSize(3);

        Map<String, GenericRecord> rows = Outputs.embeddings(out);
        assertThat(rows.keySet()).containsExactlyInAnyOrder("a-1", "a-4", "b-1", "b-4", "shared");
        assertThat(file(rows.get("shared").get("source").toString())).isEqualTo(a);
        assertThat(offset(rows.get("shared").get("source").toString())).isEqualTo(offsetOfLine(a, 3));
        assertThat(summary.succeeded).isEqualTo(5);
    }

    /** {@code <dir>/part.jsonl}: two good lines, a malformed one (line 2) and id "shared" (line 3). */
    private Path part(String dir) throws Exception {
        Path file = tmp.resolve(dir).resolve("part.jsonl");
        Files.createDirectories(file.getParent());
        Files.write(file, List.of(
                "{\"id\":\"" + dir + "-1\",\"text\":\"first line of " + dir + "\"}",
                "{\"id\":\"" + dir + "-broken\",\"text\":",
                "{\"id\":\"shared\",\"text\":\"the shared id in " + dir + "\"}",
                "{\"id\":\"" + dir + "-4\",\"text\":\"fourth line of " + dir + "\"}"));
        return file;
    }

    /** The file a {@code <path>@<offset>} position names (a local path, with or without scheme). */
    private static Path file(String position) {
        String path = position.substring(0, position.lastIndexOf('@'));
        return Paths.get(new org.apache.flink.core.fs.Path(path).toUri().getPath());
    }

    private static long offset(String position) {
        return Long.parseLong(position.substring(position.lastIndexOf('@') + 1));
    }

    /** The byte offset where 1-based {@code line} of {@code file} starts. */
    private static long offsetOfLine(Path file, int line) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        long offset = 0;
        for (int seen = 1; seen < line; offset++) {
            if (bytes[(int) offset] == '\n') {
                seen++;
            }
        }
        return offset;
    }
}
