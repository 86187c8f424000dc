package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.flinkinfer.runtime.ReferenceComparison;
import io.github.flinkinfer.runtime.card.InputKind;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelCardException;
import io.github.flinkinfer.runtime.card.Pooling;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A card written for a sentence-transformers export is the built-in card, outputs included. */
class ExportCardTest {
    static final String INSTRUCTION = "Represent this sentence for searching relevant passages: ";
    @TempDir Path dir;

    /** bge-small-en-v1.5 laid out as sentence-transformers' ONNX export, from the artifact's files. */
    static Path bgeExport(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("onnx"));
        Files.createDirectories(dir.resolve("1_Pooling"));
        copy("bge-small-en-v1.5.onnx", dir.resolve("onnx/model.onnx"));
        copy("bge-small-en-v1.5-tokenizer.json", dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("config.json"), """
                {"_name_or_path": "BAAI/bge-small-en-v1.5", "architectures": ["BertModel"],
                 "hidden_size": 384, "intermediate_size": 1536, "max_position_embeddings": 512,
                 "model_type": "bert", "num_attention_heads": 12, "num_hidden_layers": 12,
                 "vocab_size": 30522}""");
        Files.writeString(dir.resolve("1_Pooling/config.json"), """
                {"word_embedding_dimension": 384, "pooling_mode_cls_token": true,
                 "pooling_mode_mean_tokens": false, "pooling_mode_max_tokens": false,
                 "pooling_mode_mean_sqrt_len_tokens": false}""");
        Files.writeString(dir.resolve("sentence_bert_config.json"), """
                {"max_seq_length": 512, "do_lower_case": true}""");
        Files.writeString(dir.resolve("tokenizer_config.json"), """
                {"model_max_length": 512, "do_lower_case": true}""");
        Files.writeString(dir.resolve("modules.json"), """
                [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
                 {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
                 {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]""");
        Files.writeString(dir.resolve("config_sentence_transformers.json"), """
                {"prompts": {"query": "%s", "passage": ""}}""".formatted(INSTRUCTION));
        Files.writeString(dir.resolve("README.md"), "---\nlicense: mit\nlanguage: en\n---\n# bge\n");
        return dir;
    }

    static void copy(String resource, Path to) throws IOException {
        try (InputStream in = ExportCardTest.class.getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, to);
        }
    }

    @Test
    void cardForTheBgeExportReadsItsFilesAndEmbedsExactlyAsTheBuiltInCard() throws IOException {
        Path export = bgeExport(dir.resolve("bge-small-en-v1.5"));
        Path file = export.resolve("card.json");
        Files.writeString(file, ExportCard.toJson(ExportCard.from(export, ExportCard.Overrides.none())));

        ModelCard written = ModelCard.load(file);
        ModelCard builtIn = ModelCard.builtIn("bge-small-en-v1.5");
        assertThat(written.name).isEqualTo("bge-small-en-v1.5");
        assertThat(written.version).isEqualTo(builtIn.onnx.sha256().substring(0, 12));
        assertThat(written.onnx.path()).isEqualTo("onnx/model.onnx");
        assertThat(written.onnx.sha256()).isEqualTo(builtIn.onnx.sha256());
        assertThat(written.tokenizer.sha256()).isEqualTo(builtIn.tokenizer.sha256());
        assertThat(written.pooling).isEqualTo(Pooling.CLS);
        assertThat(written.maxSequenceLength).isEqualTo(512);
        assertThat(written.normalize).isTrue();
        assertThat(written.output).isEqualTo("last_hidden_state");
        assertThat(written.inputs.tokenTypeIds).isEqualTo("token_type_ids");
        assertThat(written.prefixes.query).isEqualTo(INSTRUCTION);
        assertThat(written.prefixes.passage).isNull();
        assertThat(written.license).isEqualTo("mit");
        assertThat(List.of(written.shape.layers, written.shape.hidden, written.shape.intermediate, written.shape.heads))
                .containsExactly(12, 384, 1536, 12);

        List<String> texts = ReferenceComparison.mixedLengths(48);
        for (InputKind kind : InputKind.values()) {
            List<float[]> ours = ReferenceComparison.ours(written.forInputs(kind), 512, texts, 16);
            List<float[]> reference = ReferenceComparison.ours(builtIn.forInputs(kind), 512, texts, 16);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(ours.get(i)).as(kind + " text " + i).isEqualTo(reference.get(i));
            }
        }
    }

    @Test
    void reportsEverythingItCannotInferAtOnce() throws IOException {
        Files.createDirectories(dir.resolve("1_Pooling"));
        Files.writeString(dir.resolve("config.json"), "{\"model_type\": \"bert\", \"hidden_size\": 384}");
        Files.writeString(dir.resolve("1_Pooling/config.json"), "{\"pooling_mode_max_tokens\": true}");

        ModelCardException e = catchThrowableOfType(ModelCardException.class,
                () -> ExportCard.from(dir, ExportCard.Overrides.none()));

        assertThat(e.problems()).hasSize(5);
        assertThat(e.problems().get(0)).startsWith("onnx: no model.onnx or onnx/model.onnx in");
        assertThat(e.problems().get(1)).startsWith("tokenizer: no tokenizer.json in");
        assertThat(e.problems().get(2)).startsWith("maxSequenceLength: neither sentence_bert_config.json");
        assertThat(e.problems().get(3)).isEqualTo(
                "pooling: 1_Pooling/config.json asks for [max_tokens]; only mean_tokens or cls_token alone are supported");
        assertThat(e.problems().get(4)).startsWith("shape: config.json lacks some of");
    }

    @Test
    void withoutAPoolingConfigTheUserSaysHowToPool() throws IOException {
        Path export = bgeExport(dir.resolve("e"));
        Files.delete(export.resolve("1_Pooling/config.json"));
        Files.delete(export.resolve("sentence_bert_config.json"));

        ModelCardException e = catchThrowableOfType(ModelCardException.class,
                () -> ExportCard.from(export, ExportCard.Overrides.none()));
        assertThat(e.problems()).containsExactly("pooling: no 1_Pooling/config.json (not a"
                + " sentence-transformers export); give --pooling mean or cls, as the model was trained");

        var card = ExportCard.from(export, new ExportCard.Overrides("x", "1", null, 256, Pooling.MEAN, null, "p: "));
        assertThat(card.get("pooling").asText()).isEqualTo("MEAN");
        assertThat(card.get("maxSequenceLength").asInt()).isEqualTo(256);
        assertThat(card.get("prefixes").get("passage").asText()).isEqualTo("p: ");
    }
}
