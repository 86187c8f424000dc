package io.github.flinkinfer.runtime.card;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.runtime.SampleTexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Card loading against the documented schema: all problems at once, enums in any case. */
class ModelCardSchemaTest {
    static final String SHA = "a".repeat(64);
    @TempDir Path dir;

    Path card(String json) throws IOException {
        Path file = dir.resolve("card.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void reportsEveryProblemOfACardAtOnce() throws IOException {
        // The mistakes a new user made one run at a time (issue 15), plus a few more.
        Path file = card("""
                {"name": "bge", "maxLength": 512, "pooling": "avg", "normalize": "yes",
                 "onnx": {"path": "model.onnx", "sha256": "abc"},
                 "tokenizer": {"path": "tokenizer.json", "sha256": "%s"}}
                """.formatted(SHA));

        ModelCardException e = catchThrowableOfType(ModelCardException.class, () -> ModelCard.load(file));

        assertThat(e.problems()).containsExactlyInAnyOrder(
                "version: missing (required): the version of the weights, written with the name to"
                        + " every output row, e.g. \"1\" or \"2024-06-11\"",
                "maxSequenceLength: missing (required unless embedding is set): the most tokens per"
                        + " input the model accepts, special tokens included, e.g. 512"
                        + " (sentence-transformers' max_seq_length)",
                "maxLength: unknown field; did you mean 'maxSequenceLength'?",
                "pooling: \"avg\" is not one of MEAN, CLS (any case)",
                "normalize: must be a boolean, not \"yes\"",
                "onnx.sha256: \"abc\" is not sha256 of the file, 64 hex digits (sha256sum prints it)");
        assertThat(e).hasMessageStartingWith("Model card " + file + " has 6 problems");
    }

    @Test
    void acceptsEnumValuesInAnyCase() throws IOException {
        ModelCard card = ModelCard.load(card("""
                {"name": "bge", "version": "1", "task": "embedding", "pooling": "cls",
                 "maxSequenceLength": 512, "prefixes": {"query": "q: "},
                 "onnx": {"path": "model.onnx", "sha256": "%s"},
                 "tokenizer": {"path": "tokenizer.json", "sha256": "%s"}}
                """.formatted(SHA, SHA)));

        assertThat(card.pooling).isEqualTo(Pooling.CLS);
        assertThat(card.task).isEqualTo(ModelTask.EMBEDDING);
        assertThat(card.forInputs(InputKind.QUERY).inputPrefix()).isEqualTo("q: ");
    }

    @Test
    void suggestsFieldsSpelledAnotherWayAndListsTheKnownOnes() throws IOException {
        Path file = card("""
                {"name": "m", "version": "1", "max_sequence_length": 128, "licence": "MIT", "colour": 1,
                 "onnx": {"path": "model.onnx", "sha256": "%s", "size": 3}, "embedding": "all-minilm-l6-v2",
                 "task": "CLASSIFICATION", "classification": {"labels": ["a", "b"], "activation": "softmax"}}
                """.formatted(SHA));

        List<String> problems = catchThrowableOfType(ModelCardException.class, () -> ModelCard.load(file)).problems();

        assertThat(problems).hasSize(4).contains(
                "max_sequence_length: unknown field; did you mean 'maxSequenceLength'?",
                "licence: unknown field; did you mean 'license'?",
                "onnx.size: unknown field; known fields: path, sha256");
        assertThat(problems.get(2)).startsWith("colour: unknown field; known fields: name, version, task,");
    }

    @Test
    void aCardWrittenByToJsonLoadsBack() throws IOException {
        for (String name : ModelCard.BUILT_IN) {
            ModelCard card = ModelCard.builtIn(name);
            assertThat(CardSchema.problems(new ObjectMapper().readTree(card.toJson()))).as(name).isEmpty();
        }
    }

    @Test
    void nullIsAValueOnlyWhereTheSchemaSaysSo() throws IOException {
        Path file = card("""
                {"name": "m", "version": "1", "pooling": null, "maxSequenceLength": 128,
                 "inputs": {"tokenTypeIds": null}, "onnx": {"path": "model.onnx", "sha256": "%s"},
                 "tokenizer": null}
                """.formatted(SHA));

        assertThat(catchThrowableOfType(ModelCardException.class, () -> ModelCard.load(file)).problems())
                .containsExactly("pooling: null is not one of MEAN, CLS (any case)",
                        "tokenizer: must be an object, not null");
    }

    @Test
    void everyBuiltInCardMeetsTheSchema() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String name : ModelCard.BUILT_IN) {
            try (var in = getClass().getClassLoader().getResourceAsStream("models/" + name + ".json")) {
                assertThat(CardSchema.problems(json.readTree(in))).as(name).isEmpty();
            }
            assertThat(ModelCard.builtIn(name).name).isEqualTo(name);
        }
    }

    @Test
    void schemaNamesTheFieldsAndEnumValuesTheCodeReads() throws IOException {
        JsonNode schema = CardSchema.schema();
        Set<String> written = new TreeSet<>();
        ObjectMapper mapper = new ObjectMapper();
        mapper.getSerializationConfig().introspect(mapper.constructType(ModelCard.class))
                .findProperties().forEach(p -> written.add(p.getName()));
        Set<String> documented = new TreeSet<>();
        schema.get("properties").fieldNames().forEachRemaining(documented::add);
        assertThat(documented).isEqualTo(written);

        JsonNode props = schema.get("properties");
        assertThat(upper(props.get("task").get("enum"))).isEqualTo(names(ModelTask.values()));
        assertThat(upper(props.get("pooling").get("enum"))).isEqualTo(names(Pooling.values()));
        assertThat(upper(props.get("classification").get("properties").get("activation").get("enum")))
                .isEqualTo(names(Classification.Activation.values()));
        // The docs copy is the packaged one.
        assertThat(new ObjectMapper().readTree(SampleTexts.locate("docs/model-card.schema.json").toFile()))
                .isEqualTo(schema);
    }

    static Set<String> upper(JsonNode values) {
        Set<String> out = new TreeSet<>();
        values.forEach(v -> {
            if (!v.isNull()) {
                out.add(v.asText().toUpperCase(Locale.ROOT));
            }
        });
        return out;
    }

    static Set<String> names(Enum<?>[] values) {
        return new TreeSet<>(new ArrayList<>(Arrays.stream(values).map(Enum::name).toList()));
    }
}
