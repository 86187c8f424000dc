package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.sql.SqlRunner;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Launcher;
import io.github.flinkinfer.jobs.testutils.ModelDirectories;
import io.github.flinkinfer.jobs.testutils.NoRestarts;
import io.github.flinkinfer.runtime.DeviceUnavailableException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFileCache;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFileCache;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

        NoRestarts.assertFailedOnce(cluster, "tampered", ModelIntegrityException.class);
    }

    /**
     * Run as a user runs it, the refusal of the tokenizer or the graph is one {@code error:} line
     * naming it, printed once (the graph's was also logged by each subtask whose session the
     * driver had prepared, three times in all).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tokenizer.json", "model.onnx"})
    void theCommandLineNamesTheRefusedFileInOneLine(String file) throws Exception {
        byte[] changed = tamper(models.resolve(file));
        String expected = file.equals("model.onnx") ? BUILT_IN.onnx.sha256() : BUILT_IN.tokenizer.sha256();
        Path out = tmp.resolve("out");

        Launcher.Result r = Launcher.run(tmp,
                Map.of("FLINK_INFERENCE_OPTS", "-D" + ModelFileCache.PROPERTY + "=" + tmp.resolve("cli-cache")
                        + " -D" + OptimizedGraphCache.PROPERTY + "=" + tmp.resolve("cli-graphs")),
                "embed", "--input", writeCorpus(Corpus.sample(10)).toString(), "--output", out.toString(),
                "--run-id", "cli", "--model", models.resolve("card.json").toUri().toString(),
                "--progress-seconds", "0", "--parallelism", "2");

        assertThat(r.exitCode()).as("exit code; stderr:%n%s", r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement().satisfies(line -> assertThat(line)
                .contains("Checksum mismatch for model file", models.resolve(file).toString(),
                        "expected sha256 " + expected,
                        "but the file has " + ModelFiles.sha256(changed)));
        String console = r.stdout() + r.stderr();
        assertThat(console).as("no stack trace").doesNotContain("\tat ", "Exception:");
        assertThat(console.split("Checksum mismatch", -1)).as("the refusal printed once:%n%s", console).hasSize(2);
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

    /**
     * {@code --device cuda} on this CPU machine (no driver, the CPU build of ONNX Runtime, CUDA 13
     * libraries at most): the subtasks' CUDA sessions cannot load, the job fails once without a
     * restart, and the driver's error carries the doctor's diagnosis (the same as {@code
     * flink-inference doctor} prints), not one missing library per attempt.
     */
    @Test
    void aDeviceWithoutCuda12FailsTheJobOnceWithTheDoctorsDiagnosis(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        Path out = tmp.resolve("out");

        assertThatThrownBy(() -> embed(writeCorpus(Corpus.sample(10)), out, "no-cuda",
                        "--model", "all-minilm-l6-v2-q", "--device", "cuda", "--parallelism", "2"))
                .isInstanceOf(DeviceUnavailableException.class)
                .hasMessageContaining("Device cuda:0 requested but the CUDA execution provider cannot be used")
                .hasMessageContaining("flink-inference doctor: no NVIDIA driver / no GPU on this node")
                .hasMessageContaining("this build carries ONNX Runtime for CPU only")
                .hasMessageContaining("missing libcublasLt.so.12, libcublas.so.12");
        assertThat(out.resolve("_SUCCESS-no-cuda")).doesNotExist();

        NoRestarts.assertFailedOnce(cluster, "no-cuda", DeviceUnavailableException.class);
    }

    /** Run as a user runs it: one {@code error:} line with the diagnosis, no stack trace. */
    @Test
    void theCommandLineCarriesTheDoctorsDiagnosisInOneLine() throws Exception {
        Path out = tmp.resolve("out");

        Launcher.Result r = Launcher.run(tmp, Map.of(), "embed", "--input", writeCorpus(Corpus.sample(10)).toString(),
                "--output", out.toString(), "--run-id", "cli-cuda", "--model", "all-minilm-l6-v2-q",
                "--device", "cuda", "--progress-seconds", "0");

        assertThat(r.exitCode()).as("exit code; stderr:%n%s", r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement().satisfies(line -> assertThat(line)
                .contains("Device cuda:0 requested", "flink-inference doctor: no NVIDIA driver / no GPU on this node",
                        "missing libcublasLt.so.12"));
        assertThat(r.stderr()).as("no stack trace, no second copy").doesNotContain("\tat ", "Exception:")
                .containsOnlyOnce("flink-inference doctor:");
        assertThat(out.resolve("_SUCCESS-cli-cuda")).doesNotExist();
    }

    /** Flips one byte of {@code file} in place; returns the new contents. */
    private static byte[] tamper(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
        return bytes;
    }
}
