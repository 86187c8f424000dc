package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.sql.SqlRunner;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import io.github.flinkinfer.jobs.testutils.ModelDirectories;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFileCache;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.scheduler.ExecutionGraphInfo;
import org.apache.flink.runtime.scheduler.exceptionhistory.RootExceptionHistoryEntry;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A model file refused on a TaskManager fails the job at once, though the job may restart 5
 * times ({@code FlinkDefaults}): the card is in a store ({@code file://}), so the driver only
 * resolves it and each TaskManager copies and checks its files; one of them was changed after
 * the card was written. Flink's own record of the job shows one failure and no second attempt of
 * any task, and the driver reports the TaskManager's refusal naming the file and both hashes (the
 * embedding job, its command line, and a SQL script's ML_PREDICT).
 */
class ModelRefusedWithoutRestartITCase extends ClusterTestBase {
    private static final ModelCard BUILT_IN = ModelCard.builtIn("all-minilm-l6-v2-q");

    private Path models;

    @BeforeEach
    void modelInAStoreAndFreshCaches() {
        models = ModelDirectories.copyOfBuiltIn("all-minilm-l6-v2-q", tmp.resolve("mini-q"));
        // the TaskManagers' caches, fresh (the MiniCluster's share this JVM's): an entry of the
        // untampered file, as the copy above leaves in the default one, would be a hit
        System.setProperty(ModelFileCache.PROPERTY, tmp.resolve("model-cache").toString());
        System.setProperty(OptimizedGraphCache.PROPERTY, tmp.resolve("graph-cache").toString());
    }

    @AfterEach
    void defaultCaches() {
        System.clearProperty(ModelFileCache.PROPERTY);
        System.clearProperty(OptimizedGraphCache.PROPERTY);
    }

    @Test
    void aTamperedGraphFailsTheJobWithoutARestart(@InjectMiniCluster MiniCluster cluster) throws Exception {
        byte[] changed = tamper(models.resolve("model.onnx"));
        Path out = tmp.resolve("out");

        assertThatThrownBy(() -> embed(writeCorpus(Corpus.sample(10)), out, "tampered",
                        "--model", models.resolve("card.json").toUri().toString(), "--parallelism", "2"))
                .as("the subtasks' refusal, as the driver reports its own")
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("Checksum mismatch for model file")
                .hasMessageContaining(models.resolve("model.onnx").toString())
                .hasMessageContaining("expected sha256 " + BUILT_IN.onnx.sha256())
                .hasMessageContaining("but the file has " + ModelFiles.sha256(changed));
        assertThat(out.resolve("_SUCCESS-tampered")).doesNotExist();

        ExecutionGraphInfo job = cluster.getExecutionGraphInfo(failedJob(cluster, "tampered")).get();
        List<RootExceptionHistoryEntry> failures = new ArrayList<>();
        job.getExceptionHistory().forEach(failures::add);
        assertThat(failures).as("one failure: none was followed by a restart").singleElement()
                .satisfies(f -> assertThat(chain(f.getException().deserializeError(getClass().getClassLoader())))
                        .as("Flink classified it through")
                        .hasAtLeastOneElementOfType(NonRecoverableLoadException.class)
                        .hasAtLeastOneElementOfType(ModelIntegrityException.class));
        List<Integer> attempts = new ArrayList<>();
        for (AccessExecutionVertex v : job.getArchivedExecutionGraph().getAllExecutionVertices()) {
            attempts.add(v.getCurrentExecutionAttempt().getAttemptNumber());
        }
        assertThat(attempts).as("every task ran its first attempt only").isNotEmpty().containsOnly(0);
    }

    /** Run as a user runs it, the refusal of the tokenizer is one {@code error:} line naming it. */
    @Test
    void theCommandLineNamesTheRefusedFileInOneLine() throws Exception {
        byte[] changed = tamper(models.resolve("tokenizer.json"));
        Path out = tmp.resolve("out");

        Launcher.Result r = Launcher.run(tmp,
                Map.of("FLINK_INFERENCE_OPTS", "-D" + ModelFileCache.PROPERTY + "=" + tmp.resolve("cli-cache")),
                "embed", "--input", writeCorpus(Corpus.sample(10)).toString(), "--output", out.toString(),
                "--run-id", "cli", "--model", models.resolve("card.json").toUri().toString(),
                "--progress-seconds", "0");

        assertThat(r.exitCode()).as("exit code; stderr:%n%s", r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement().satisfies(line -> assertThat(line)
                .contains("Checksum mismatch for model file", models.resolve("tokenizer.json").toString(),
                        "expected sha256 " + BUILT_IN.tokenizer.sha256(),
                        "but the file has " + ModelFiles.sha256(changed)));
        assertThat(r.stderr()).as("no stack trace").doesNotContain("\tat ", "Exception:");
        assertThat(out.resolve("_SUCCESS-cli")).doesNotExist();
    }

    /** The same refusal from ML_PREDICT's subtasks ends a SQL script as the driver's own would. */
    @Test
    void mlPredictEndsTheScriptWithTheRefusal() throws Exception {
        tamper(models.resolve("model.onnx"));
        Path input = Files.createDirectories(tmp.resolve("in"));
        Corpus.writeJsonl(input.resolve("docs.jsonl"), Corpus.sample(5));
        String script = String.join("\n",
                "CREATE TABLE docs (id STRING, text STRING) WITH ('connector' = 'filesystem',",
                "  'path' = '" + input + "', 'format' = 'json');",
                "CREATE TABLE `out` (id STRING, embedding ARRAY<FLOAT>) WITH ('connector' = 'filesystem',",
                "  'path' = '" + tmp.resolve("out") + "', 'format' = 'json');",
                "CREATE MODEL mini INPUT (text STRING) OUTPUT (embedding ARRAY<FLOAT>)",
                "  WITH ('provider' = 'onnx', 'model' = '" + models.resolve("card.json").toUri() + "');",
                "INSERT INTO `out` SELECT id, embedding FROM ML_PREDICT(TABLE docs, MODEL mini, DESCRIPTOR(text));");

        assertThatThrownBy(() -> SqlRunner.execute(SqlRunner.environment(2, Map.of()), script, System.out))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining(models.resolve("model.onnx").toString())
                .hasMessageContaining("expected sha256 " + BUILT_IN.onnx.sha256());
    }

    /** Flips one byte of {@code file} in place; returns the new contents. */
    private static byte[] tamper(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
        return bytes;
    }

    /** The id of the cluster's failed job of run {@code runId} (job name "embed <model> run <id>"). */
    private static org.apache.flink.api.common.JobID failedJob(MiniCluster cluster, String runId) throws Exception {
        List<JobStatusMessage> jobs = cluster.listJobs().get().stream()
                .filter(j -> j.getJobName().endsWith(" run " + runId)).toList();
        assertThat(jobs).singleElement().extracting(JobStatusMessage::getJobState).isEqualTo(JobStatus.FAILED);
        return jobs.get(0).getJobId();
    }

    private static List<Throwable> chain(Throwable t) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = t; c != null; c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }
}
