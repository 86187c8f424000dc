package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelIntegrityTest {
    @TempDir Path dir;

    /** Copies the built-in tokenizer into {@code dir} and writes a card naming it. */
    private Path cardWithTokenizer(String tokenizerPath, String sha) throws Exception {
        try (InputStream in =
                getClass().getClassLoader().getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            Files.write(dir.resolve("tokenizer.json"), in.readAllBytes());
        }
        Files.writeString(dir.resolve("model.onnx"), "not really a model");
        String card =
                "{\"name\":\"m\",\"version\":\"1\",\"maxSequenceLength\":128,"
                        + "\"onnx\":{\"path\":\"model.onnx\",\"sha256\":\""
                        + ModelFiles.sha256(Files.readAllBytes(dir.resolve("model.onnx")))
                        + "\"},\"tokenizer\":{\"path\":\"" + tokenizerPath + "\",\"sha256\":\""
                        + sha + "\"}}";
        Path cardFile = dir.resolve("card.json");
        Files.writeString(cardFile, card);
        return cardFile;
    }

    @Test
    void verifiedFileLoads() throws Exception {
        String sha = ModelCard.builtIn("all-minilm-l6-v2").tokenizer.sha256();
        ModelCard card = ModelCard.load(cardWithTokenizer("tokenizer.json", sha));
        assertThat(ModelFiles.readVerified(card, card.tokenizer)).hasSize(711661);
    }

    @Test
    void oneTamperedByteIsRefusedNamingTheFile() throws Exception {
        String sha = ModelCard.builtIn("all-minilm-l6-v2").tokenizer.sha256();
        Path cardFile = cardWithTokenizer("tokenizer.json", sha);
        byte[] bytes = Files.readAllBytes(dir.resolve("tokenizer.json"));
        bytes[1000] ^= 1;
        Files.write(dir.resolve("tokenizer.json"), bytes);
        ModelCard card = ModelCard.load(cardFile);
        assertThatThrownBy(() -> TextTokenizer.load(card, RuntimeOptions.defaults()))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("Checksum mismatch")
                .hasMessageContaining(dir.resolve("tokenizer.json").toString());
    }

    @Test
    void pathsOutsideTheCardDirectoryAreRefused() throws Exception {
        String sha = "0".repeat(64);
        assertThatThrownBy(
                        () -> ModelFiles.readVerified(
                                ModelCard.load(cardWithTokenizer("../secret.json", sha)),
                                new ModelFile("../secret.json", sha)))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("inside the model card's directory");
        Path outside = Files.createTempFile("outside", ".json");
        Files.createSymbolicLink(dir.resolve("link.json"), outside);
        ModelCard card = ModelCard.load(cardWithTokenizer("link.json", sha));
        assertThatThrownBy(() -> ModelFiles.readVerified(card, card.tokenizer))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("outside");
    }

    @Test
    void unknownModelNameIsAClearError() {
        assertThatThrownBy(() -> ModelCard.resolve("no-such-model"))
                .hasMessageContaining("Unknown model 'no-such-model'")
                .hasMessageContaining("all-minilm-l6-v2");
    }
}
