package io.github.flinkinfer.operators.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.files.ModelFileCache;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --model} values: a URI with a scheme is read through Flink's file systems (here
 * {@code file://}, the same code path as {@code s3://}), with its files copied into the model
 * file cache; names and plain paths stay as they were.
 */
class ModelCardsTest {
    @TempDir Path tmp;

    @AfterEach
    void defaultCache() {
        System.clearProperty(ModelFileCache.PROPERTY);
    }

    @Test
    void onlyAUriWithASchemeGoesThroughFlinksFileSystems() {
        assertThat(ModelCards.hasScheme("s3://bucket/models/m/card.json")).isTrue();
        assertThat(ModelCards.hasScheme("hdfs://nn:8020/models/m/card.json")).isTrue();
        assertThat(ModelCards.hasScheme("file:///models/m/card.json")).isTrue();
        assertThat(ModelCards.hasScheme("/models/m/card.json")).isFalse();
        assertThat(ModelCards.hasScheme("models/m/card.json")).isFalse();
        assertThat(ModelCards.hasScheme("C:\\models\\card.json")).isFalse();
        assertThat(ModelCards.hasScheme("all-minilm-l6-v2-q")).isFalse();
        assertThat(ModelCards.resolve("all-minilm-l6-v2-q").store).isNull();
    }

    @Test
    void aCardUriIsReadThroughTheFileSystemAndItsFilesThroughTheCache() throws Exception {
        ModelCard builtIn = ModelCard.builtIn("all-minilm-l6-v2-q");
        Path dir = Files.createDirectories(tmp.resolve("store/mini"));
        Files.write(dir.resolve("tokenizer.json"), ModelFiles.readVerified(builtIn, builtIn.tokenizer));
        Files.write(dir.resolve("model.onnx"), new byte[] {1, 2, 3});
        ModelCard stored = builtIn.toBuilder()
                .onnx(new ModelFile("model.onnx", ModelFiles.sha256(new byte[] {1, 2, 3})))
                .tokenizer(new ModelFile("tokenizer.json", builtIn.tokenizer.sha256()))
                .build();
        Files.writeString(dir.resolve("card.json"), stored.toJson());
        Path cache = tmp.resolve("cache");
        System.setProperty(ModelFileCache.PROPERTY, cache.toString());

        ModelCard card = ModelCards.resolve(dir.resolve("card.json").toUri().toString());

        assertThat(card.store).isInstanceOf(FlinkModelStore.class);
        assertThat(card.baseDirectory).isEqualTo(dir.toUri().toString().replaceAll("/$", ""));
        assertThat(ModelFiles.readVerified(card, card.tokenizer)).hasSize((int) Files.size(dir.resolve("tokenizer.json")));
        assertThat(cache.resolve(card.tokenizer.sha256())).exists();
        assertThatThrownBy(() -> ModelCards.resolve(tmp.resolve("store/none/card.json").toUri().toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot read model card file:");
        Files.writeString(dir.resolve("model.onnx"), "changed");
        assertThatThrownBy(() -> ModelFiles.readVerified(card, card.onnx))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("expected sha256 " + card.onnx.sha256());
    }
}
