package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.jobs.testutils.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs on object storage as users do: the corpus is read from {@code s3://} and every output
 * written to {@code s3://} of a real S3 endpoint (S3Proxy) through Flink's own S3 file system,
 * on 2 TaskManagers; the bucket then holds every id exactly once.
 */
class S3OutputITCase {
    @RegisterExtension static final S3Server S3 = new S3Server();
    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoTaskManagers();

    /** A few hundred sample records and one malformed line, so errors/ has a row too. */
    private static final Map<String, String> CORPUS = Corpus.sample(300);
    private static final String INPUT = "corpus/sample.jsonl";

    @TempDir Path tmp;

    @BeforeAll
    static void uploadCorpus(@TempDir Path dir) throws Exception {
        Path file = Corpus.writeJsonl(dir.resolve("sample.jsonl"), CORPUS);
        Files.writeString(file, "{\"id\": \"broken\", \"text\": \n", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        S3.put(INPUT, file);
    }

    @Test
    void readsAndWritesS3WithEveryIdExactlyOnce() throws Exception {
        MiniClusters.embed(options("plain", "a"));

        Path out = S3.copyTo("plain/", tmp.resolve("plain"));
        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());
        List<JsonNode> errors = Outputs.jsonLines(out.resolve("errors"));
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.get("reason").asText()).isEqualTo("malformed_json");
            assertThat(e.get("source").asText()).endsWith("sample.jsonl:" + (CORPUS.size() + 1));
        });
        assertThat(Outputs.jsonLines(out.resolve("metrics"))).isNotEmpty();
        assertThat(S3.keys("plain/")).allMatch(k -> k.matches("plain/(embeddings|metrics|errors)/part-a-.*"));
    }

    private static io.github.flinkinfer.jobs.EmbedOptions options(String prefix, String runId, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--input", S3.uri(INPUT),
                "--output", S3.uri(prefix), "--run-id", runId, "--parallelism", "2"));
        args.addAll(List.of(more));
        return Jobs.options(args.toArray(String[]::new));
    }
}
