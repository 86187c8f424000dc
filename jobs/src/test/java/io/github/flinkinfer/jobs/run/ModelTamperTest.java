package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.EmbeddingJob;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.ModelIntegrityException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One flipped byte in a model file makes the job refuse to start, naming the file. */
class ModelTamperTest {
    @TempDir Path dir;

    @Test
    void tamperedModelFileRefusesToStart() throws Exception {
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

        assertThatThrownBy(() -> EmbeddingJob.run(options,
                        StreamExecutionEnvironment.getExecutionEnvironment()))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("Checksum mismatch")
                .hasMessageContaining(dir.resolve("model.onnx").toString());
        assertThat(dir.resolve("out")).doesNotExist();
    }

    private static void copy(String resource, Path target) throws Exception {
        try (InputStream in = ModelTamperTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
    }
}
