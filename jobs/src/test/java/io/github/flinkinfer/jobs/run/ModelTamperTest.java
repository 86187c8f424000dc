package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One flipped byte in a model file makes the job refuse to start, naming the file, on any environment. */
class ModelTamperTest {
    @TempDir Path dir;

    @Test
    void tamperedModelFileRefusesToStart() throws Exception {
        RunOptions options = tamperedRun();
        assertThatThrownBy(() -> EmbeddingJob.run(options,
                        StreamExecutionEnvironment.getExecutionEnvironment()))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("Checksum mismatch")
                .hasMessageContaining(dir.resolve("model.onnx").toString());
        assertThat(dir.resolve("out")).doesNotExist();
    }

    /** There the sessions prepared ahead read the graph, and the driver waits for their check. */
    @Test
    void onTheEmbeddedClusterTooTheRunIsRefusedBeforeItsOutputIsTouched() throws Exception {
        RunOptions options = tamperedRun();
        String cache = System.getProperty(OptimizedGraphCache.PROPERTY);
        System.setProperty(OptimizedGraphCache.PROPERTY, "off"); // a cached graph would not read the original
        try {
            StreamExecutionEnvironment env = FlinkDefaults.environment(null, null, java.util.Map.of());
            assertThat(env).isInstanceOf(EmbeddedEnvironment.class);
            assertThatThrownBy(() -> EmbeddingJob.run(options, env))
                    .isInstanceOf(ModelIntegrityException.class)
                    .hasMessageContaining("Checksum mismatch")
                    .hasMessageContaining(dir.resolve("model.onnx").toString());
        } finally {
            if (cache == null) {
                System.clearProperty(OptimizedGraphCache.PROPERTY);
            } else {
                System.setProperty(OptimizedGraphCache.PROPERTY, cache);
            }
        }
        assertThat(dir.resolve("out")).doesNotExist();
    }

    /** The options of a run of the built-in int8 model copied into {@code dir}, one byte flipped. */
    private RunOptions tamperedRun() throws Exception {
        ModelCard builtIn = ModelCard.builtIn("all-minilm-l6-v2-q");
        copy("all-minilm-l6-v2-q.onnx", dir.resolve("model.onnx"));
        copy("all-minilm-l6-v2-q-tokenizer.json", dir.resolve("tokenizer.json"));
        Path card = dir.resolve("card.json");
        Files.writeString(card, builtIn.toJson()
                .replace("classpath:all-minilm-l6-v2-q.onnx", "model.onnx")
                .replace("classpath:all-minilm-l6-v2-q-tokenizer.json", "tokenizer.json"));
        RunOptions options = Jobs.options("--input", Corpus.SAMPLE.toString(),
                "--output", dir.resolve("out").toString(), "--model", card.toString());
        assertThat(options.modelCard().name).isEqualTo("all-minilm-l6-v2-q");

        byte[] bytes = Files.readAllBytes(dir.resolve("model.onnx"));
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(dir.resolve("model.onnx"), bytes);
        return options;
    }

    private static void copy(String resource, Path target) throws Exception {
        try (InputStream in = ModelTamperTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }
}
