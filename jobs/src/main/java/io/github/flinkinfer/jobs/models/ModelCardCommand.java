package io.github.flinkinfer.jobs.models;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.Pooling;
import io.github.flinkinfer.runtime.files.ExportCard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code models card DIR}: writes {@code DIR/card.json} for a Hugging Face / sentence-transformers
 * ONNX export, then loads it back as a run would, so a card that is written is a card that works.
 *
 * <pre>{@code
 * flink-inference models card exports/bge-small-en-v1.5 --query-prefix "Represent this sentence for searching relevant passages: "
 * flink-inference embed --model exports/bge-small-en-v1.5/card.json --input corpus.jsonl --output out
 * }</pre>
 */
@Command(name = "card", mixinStandardHelpOptions = true,
        description = "Write card.json for a Hugging Face / sentence-transformers ONNX export directory"
                + " (model.onnx, tokenizer.json, config.json, 1_Pooling/config.json): sha256s, pooling,"
                + " max length, shape and graph names read from its files.")
public final class ModelCardCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "The export directory; card.json is written there.")
    Path dir;

    @Option(names = "--name", description = "Card name. Default: the directory's name.")
    String name;

    @Option(names = "--model-version", description = "Card version. Default: the graph's sha256, first 12 digits.")
    String version;

    @Option(names = "--onnx", description = "The graph, relative to DIR. Default: model.onnx or onnx/model.onnx.")
    String onnx;

    @Option(names = "--max-length", description = "Max tokens. Default: sentence_bert_config.json's"
            + " max_seq_length, else tokenizer_config.json's model_max_length.")
    Integer maxLength;

    @Option(names = "--pooling", description = "MEAN or CLS. Default: from 1_Pooling/config.json.")
    Pooling pooling;

    @Option(names = "--query-prefix", description = "Text before each query. Default: the export's 'query' prompt.")
    String queryPrefix;

    @Option(names = "--passage-prefix", description = "Text before each passage. Default: its 'passage' or 'document' prompt.")
    String passagePrefix;

    @Option(names = "--force", description = "Replace an existing card.json.")
    boolean force;

    @Override
    public Integer call() {
        Path out = write(dir, new ExportCard.Overrides(name, version, onnx, maxLength, pooling,
                queryPrefix, passagePrefix), force);
        ModelCard card = ModelCard.load(out);
        System.out.println("Wrote " + out + ": " + card.id() + ", " + card.pooling + " pooling, max "
                + card.maxSequenceLength + " tokens. Use it with --model " + out);
        return 0;
    }

    /** Writes and returns {@code dir/card.json}; refuses to replace one unless {@code force}. */
    static Path write(Path dir, ExportCard.Overrides overrides, boolean force) {
        Path out = dir.resolve("card.json");
        if (Files.exists(out) && !force) {
            throw new IllegalArgumentException(out + " exists; --force replaces it");
        }
        ObjectNode card = ExportCard.from(dir, overrides);
        try {
            Files.writeString(out, ExportCard.toJson(card));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot write " + out, e);
        }
        return out;
    }
}
