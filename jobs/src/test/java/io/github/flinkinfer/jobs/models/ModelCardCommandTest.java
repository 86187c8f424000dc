package io.github.flinkinfer.jobs.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.Main;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.Pooling;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code models card DIR} from the command line, on an export made of the int8 MiniLM's files. */
class ModelCardCommandTest {
    @TempDir Path dir;

    @Test
    void writesALoadableCardAndKeepsAnExistingOneUnlessForced() throws IOException {
        copy("all-minilm-l6-v2-q.onnx", dir.resolve("model.onnx"));
        copy("all-minilm-l6-v2-q-tokenizer.json", dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("config.json"), """
                {"hidden_size": 384, "intermediate_size": 1536, "max_position_embeddings": 512,
                 "num_attention_heads": 12, "num_hidden_layers": 6}""");
        CommandLine cli = Main.commandLine();

        int code = cli.execute("models", "card", dir.toString(), "--name", "minilm-q",
                "--model-version", "7", "--pooling", "mean", "--max-length", "256");

        assertThat(code).isZero();
        ModelCard card = ModelCard.load(dir.resolve("card.json"));
        ModelCard builtIn = ModelCard.builtIn("all-minilm-l6-v2-q");
        assertThat(card.id()).isEqualTo("minilm-q@7");
        assertThat(card.onnx.sha256()).isEqualTo(builtIn.onnx.sha256());
        assertThat(card.pooling).isEqualTo(Pooling.MEAN);
        assertThat(card.maxSequenceLength).isEqualTo(256);
        assertThat(card.shape.layers).isEqualTo(6);

        String before = Files.readString(dir.resolve("card.json"));
        assertThat(cli.execute("models", "card", dir.toString(), "--pooling", "cls")).isNotZero();
        assertThat(Files.readString(dir.resolve("card.json"))).isEqualTo(before);
        assertThat(cli.execute("models", "card", dir.toString(), "--pooling", "cls", "--force",
                "--max-length", "256")).isZero();
        assertThat(ModelCard.load(dir.resolve("card.json")).pooling).isEqualTo(Pooling.CLS);
    }

    static void copy(String resource, Path to) throws IOException {
        try (InputStream in = ModelCardCommandTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, to);
        }
    }
}
