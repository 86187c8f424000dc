package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.files.ModelFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A user's model directory made from a built-in model: its graph and tokenizer as
 * {@code model.onnx} and {@code tokenizer.json} beside a {@code card.json} naming them with
 * their sha256, ready to upload to a store ({@link S3Server#putDirectory}).
 *
 * <pre>{@code
 * Path dir = ModelDirectories.copyOfBuiltIn("all-minilm-l6-v2-q", tmp.resolve("mini-q"));
 * }</pre>
 */
public final class ModelDirectories {
    /** The files every such directory holds. */
    public static final List<String> FILES = List.of("card.json", "model.onnx", "tokenizer.json");

    private ModelDirectories() {}

    /** Writes the directory and returns it. */
    public static Path copyOfBuiltIn(String builtIn, Path dir) {
        try {
            ModelCard card = ModelCard.builtIn(builtIn);
            Files.createDirectories(dir);
            Files.write(dir.resolve("model.onnx"), ModelFiles.readVerified(card, card.onnx));
            Files.write(dir.resolve("tokenizer.json"), ModelFiles.readVerified(card, card.tokenizer));
            ModelCard local = card.toBuilder()
                    .onnx(new ModelFile("model.onnx", card.onnx.sha256()))
                    .tokenizer(new ModelFile("tokenizer.json", card.tokenizer.sha256()))
                    .build();
            Files.writeString(dir.resolve("card.json"), local.toJson());
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
