package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.ModelDirectories;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFileCache;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's model on object storage: card, graph and tokenizer on {@code s3://} of a real S3
 * endpoint (S3Proxy) read through Flink's S3 file system, used by a 2-TaskManager run. The card
 * is resolved once on the client; the files land once in this machine's owner-only model cache,
 * named by sha256, and a cached file changed afterwards is refused naming it and both hashes.
 */
class ModelOnS3ITCase extends ClusterTestBase {
    @RegisterExtension static final io.github.flinkinfer.jobs.testutils.S3Server S3 =
            new io.github.flinkinfer.jobs.testutils.S3Server();

    private static final Map<String, String> CORPUS = Corpus.sample(200);
    private static final String CARD = S3.uri("models/mini-q/card.json");
    private static final ModelCard BUILT_IN = ModelCard.builtIn("all-minilm-l6-v2-q");

    private Path cache;

    @BeforeAll
    static void uploadModel(@TempDir Path dir) {
        S3.putDirectory("models/mini-q", ModelDirectories.copyOfBuiltIn("all-minilm-l6-v2-q", dir.resolve("mini-q")));
    }

    @BeforeEach
    void ownCaches() {
        cache = tmp.resolve("model-cache"); // the MiniCluster's TaskManagers share this JVM's cache
        System.setProperty(ModelFileCache.PROPERTY, cache.toString());
        // a fresh graph cache: a hit there would not need the graph file at all
        System.setProperty(OptimizedGraphCache.PROPERTY, tmp.resolve("graph-cache").toString());
    }

    @AfterEach
    void defaultCaches() {
        System.clearProperty(ModelFileCache.PROPERTY);
        System.clearProperty(OptimizedGraphCache.PROPERTY);
    }

    @Test
    void aCardOnS3RunsOnTwoTaskManagersWithEveryIdOnce() throws Exception {
        Path out = tmp.resolve("out");
        RunSummary summary = embed(writeCorpus(CORPUS), out, "s3model", "--model", CARD, "--parallelism", "2");

        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrderElementsOf(CORPUS.keySet());
        assertThat(summary.succeeded).isEqualTo(CORPUS.size());
        assertThat(summary.failed).isZero();
        assertThat(summary.model).isEqualTo(BUILT_IN.id());
        try (var files = Files.list(cache)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("graph and tokenizer, each copied once, named by sha256")
                    .containsExactlyInAnyOrder(BUILT_IN.onnx.sha256(), BUILT_IN.tokenizer.sha256());
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rwx------");
    }

    private static ModelIntegrityException refusal(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ModelIntegrityException m) {
                return m;
            }
        }
        return null;
    }

    @Test
    void aTamperedCachedFileIsRefusedNamingItAndBothHashes() throws Exception {
        embed(writeCorpus(Corpus.sample(20)), tmp.resolve("first"), "first", "--model", CARD);
        Path entry = cache.resolve(BUILT_IN.tokenizer.sha256()); // read on every load (the graph may be a graph-cache hit)
        byte[] tokenizer = Files.readAllBytes(entry);
        tokenizer[tokenizer.length / 2] ^= 1;
        Files.write(entry, tokenizer);

        assertThatThrownBy(() -> embed(writeCorpus(Corpus.sample(20)), tmp.resolve("second"), "second", "--model", CARD))
                .satisfies(e -> assertThat(refusal(e)).as("the TaskManager's refusal").isNotNull()
                        .satisfies(r -> assertThat(r.getMessage())
                                .contains(S3.uri("models/mini-q/tokenizer.json"), entry.toString(),
                                        "expected sha256 " + BUILT_IN.tokenizer.sha256(),
                                        "but the file has " + ModelFiles.sha256(tokenizer))));
    }
}
