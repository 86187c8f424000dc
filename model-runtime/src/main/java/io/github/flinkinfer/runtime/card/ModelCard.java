package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.flinkinfer.runtime.postprocess.ClsPooling;
import io.github.flinkinfer.runtime.postprocess.L2Normalize;
import io.github.flinkinfer.runtime.postprocess.MeanPooling;
import io.github.flinkinfer.runtime.postprocess.PostProcessing;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything needed to load and run one model: files with checksums, tokenizer, shapes and
 * post-processing. Loaded from JSON checked against {@code docs/model-card.schema.json} (see
 * docs/model-cards.md); built-in cards live under {@code models/} on the classpath. Immutable:
 * {@link #forInputs} and {@link #toBuilder} give changed copies.
 *
 * <pre>{@code
 * ModelCard card = ModelCard.resolve("all-minilm-l6-v2");       // built-in
 * ModelCard mine = ModelCard.resolve("/models/my-model/card.json"); // user-supplied
 * ModelCard remote = ModelCard.load("s3://models/my-model/card.json", store); // any file system
 * ModelCard queries = ModelCard.resolve("e5-small-v2").forInputs(InputKind.QUERY); // a copy
 * }</pre>
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL) // toJson() writes a card that loads back
@JsonDeserialize(builder = ModelCardBuilder.class)
public final class ModelCard implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON =
            JsonMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
                    .build();

    /** Names of the built-in models, first is the default. */
    public static final List<String> BUILT_IN = List.of("all-minilm-l6-v2", "all-minilm-l6-v2-q",
            "bge-small-en-v1.5", "bge-small-en-v1.5-q", "e5-small-v2", "e5-small-v2-q",
            "spam-assassin-minilm");

    public final String name;
    public final String version;
    public final ModelTask task;
    public final ModelFile onnx;
    public final ModelFile tokenizer;
    /**
     * ONNX external-data files (weights stored beside the graph), each checksum-verified and
     * confined to the card's directory; the graph is then loaded from its path so ONNX Runtime
     * finds them there. Not allowed for built-in (classpath) models.
     */
    public final List<ModelFile> externalData;
    public final int maxSequenceLength;
    public final Inputs inputs;
    public final String output;
    public final Pooling pooling;
    public final boolean normalize;
    /** Text put before each input, by {@link InputKind}; what the model was trained with. */
    public final Prefixes prefixes;
    /** Licence of the model weights (SPDX id, e.g. {@code MIT}), shown by the models command. */
    public final String license;
    /** Model shape, used to count FLOPs in the benchmark and the report. */
    public final Shape shape;
    /** Free-text notes shown in reports (e.g. "int8 activations are quantized per batch"). */
    public final String notes;
    /**
     * Embed → head chain: the base embedding model (a built-in name, or a card file in this
     * card's directory) whose pooled output feeds {@code onnx}; tokenizer, inputs and shape come
     * from it. Null for a single graph.
     */
    public final String embedding;
    /** Labels, activation and thresholds; required for {@link ModelTask#CLASSIFICATION}. */
    public final Classification classification;

    /** The resolved {@link #embedding} card, or null. */
    @JsonIgnore public final ModelCard base;

    /**
     * Directory that relative file paths resolve against: a local path, or the card's location in
     * its {@link #store} up to the last {@code /}; null for built-in cards.
     */
    @JsonIgnore public final String baseDirectory;

    /** Where this card's files are read from when they are not local; null for local and built-in cards. */
    @JsonIgnore public final ModelStore store;

    /** What this run's inputs are; picks the prefix. Set per run ({@link #forInputs}), not part of the card file. */
    @JsonIgnore public final InputKind inputKind;

    ModelCard(ModelCardBuilder b) {
        name = b.name;
        version = b.version;
        task = Objects.requireNonNull(b.task, "task");
        onnx = b.onnx;
        tokenizer = b.tokenizer;
        externalData = b.externalData == null ? List.of() : List.copyOf(b.externalData);
        maxSequenceLength = b.maxSequenceLength;
        inputs = Objects.requireNonNull(b.inputs, "inputs");
        output = b.output;
        pooling = Objects.requireNonNull(b.pooling, "pooling");
        normalize = b.normalize;
        prefixes = b.prefixes;
        license = b.license;
        shape = b.shape;
        notes = b.notes;
        embedding = b.embedding;
        classification = b.classification;
        base = b.base;
        baseDirectory = b.baseDirectory;
        store = b.store;
        inputKind = Objects.requireNonNull(b.inputKind, "input kind");
    }

    /** A builder with the card file's defaults (an embedding model, mean pooling, normalized). */
    public static ModelCardBuilder builder() {
        return new ModelCardBuilder();
    }

    /** A builder holding every value of this card, to build a changed copy. */
    public ModelCardBuilder toBuilder() {
        return new ModelCardBuilder(this);
    }

    /** Input prefixes (or instructions) per {@link InputKind}; null or empty = none. */
    public static final class Prefixes implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String query;
        public final String passage;

        @JsonCreator
        public Prefixes(@JsonProperty("query") String query, @JsonProperty("passage") String passage) {
            this.query = query;
            this.passage = passage;
        }

        /** No prefix for either kind. */
        public static Prefixes none() {
            return new Prefixes(null, null);
        }

        /** The prefix for {@code kind}, {@code ""} when none. */
        public String of(InputKind kind) {
            String p = kind == InputKind.QUERY ? query : passage;
            return p == null ? "" : p;
        }
    }

    /** ONNX graph input names; bound through a builder so an explicit null token type differs from none given. */
    @JsonDeserialize(builder = Inputs.Builder.class)
    public static final class Inputs implements Serializable {
        private static final long serialVersionUID = 1L;
        public final String inputIds;
        public final String attentionMask;
        /** Null when the graph has no token type input. */
        public final String tokenTypeIds;

        public Inputs(String inputIds, String attentionMask, String tokenTypeIds) {
            this.inputIds = Objects.requireNonNull(inputIds, "inputIds");
            this.attentionMask = Objects.requireNonNull(attentionMask, "attentionMask");
            this.tokenTypeIds = tokenTypeIds;
        }

        /** {@code input_ids}, {@code attention_mask}, {@code token_type_ids}. */
        public static Inputs defaults() {
            return new Builder().build();
        }

        /** Binds the card's {@code inputs} section; names not given keep their defaults. */
        @JsonPOJOBuilder(withPrefix = "")
        static final class Builder {
            private String inputIds = "input_ids";
            private String attentionMask = "attention_mask";
            private String tokenTypeIds = "token_type_ids";

            Builder inputIds(String name) {
                inputIds = name;
                return this;
            }

            Builder attentionMask(String name) {
                attentionMask = name;
                return this;
            }

            Builder tokenTypeIds(String name) {
                tokenTypeIds = name;
                return this;
            }

            Inputs build() {
                return new Inputs(inputIds, attentionMask, tokenTypeIds);
            }
        }
    }

    /** Transformer encoder shape. */
    public static final class Shape implements Serializable {
        private static final long serialVersionUID = 1L;
        public final int layers;
        public final int hidden;
        public final int intermediate;
        public final int heads;

        @JsonCreator
        public Shape(@JsonProperty("layers") int layers, @JsonProperty("hidden") int hidden,
                @JsonProperty("intermediate") int intermediate, @JsonProperty("heads") int heads) {
            this.layers = layers;
            this.hidden = hidden;
            this.intermediate = intermediate;
            this.heads = heads;
        }
    }

    /** A built-in name (see {@link #BUILT_IN}) or the path of a card JSON file. */
    public static ModelCard resolve(String nameOrPath) {
        Objects.requireNonNull(nameOrPath, "model");
        String key = nameOrPath.toLowerCase(Locale.ROOT);
        if (BUILT_IN.contains(key)) {
            return builtIn(key);
        }
        Path path = Path.of(nameOrPath);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(
                    "Unknown model '" + nameOrPath + "': not a built-in model " + BUILT_IN
                            + " and not a model card file");
        }
        return load(path);
    }

    public static ModelCard builtIn(String name) {
        String resource = "models/" + name + ".json";
        try (InputStream in = ModelCard.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No built-in model card " + resource);
            }
            return fromJson(JSON.readTree(in), "built-in " + name, null, null);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read built-in model card " + resource, e);
        }
    }

    /**
     * Loads a card file. Every problem of the card is reported at once, in one {@link
     * ModelCardException}; enum values are accepted in any case.
     */
    public static ModelCard load(Path cardFile) {
        JsonNode tree;
        try {
            tree = JSON.readTree(cardFile.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "Cannot read model card " + cardFile + ": " + e.getMessage(), e);
        }
        return fromJson(tree, cardFile.toString(), cardFile.toAbsolutePath().getParent().toString(), null);
    }

    /**
     * Loads the card at {@code location} in {@code store} (e.g. {@code s3://models/mine/card.json});
     * its files are then read from {@code store}, each copied once per machine ({@code
     * files.ModelFileCache}) and checked against its sha256 on every load.
     */
    public static ModelCard load(String location, ModelStore store) {
        Objects.requireNonNull(store, "model store");
        int slash = location.lastIndexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("Model card location '" + location + "' has no directory");
        }
        JsonNode tree;
        try (InputStream in = store.open(location)) {
            tree = JSON.readTree(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read model card " + location + ": " + e.getMessage(), e);
        }
        return fromJson(tree, location, location.substring(0, slash), store);
    }

    /** Checks {@code tree} against the schema, binds it, then checks what the schema cannot. */
    static ModelCard fromJson(JsonNode tree, String source, String baseDirectory, ModelStore store) {
        List<String> problems = CardSchema.problems(tree);
        if (!problems.isEmpty()) {
            throw new ModelCardException(source, problems);
        }
        ModelCardBuilder card;
        try {
            card = JSON.treeToValue(tree, ModelCard.class).toBuilder();
        } catch (IOException | IllegalArgumentException e) {
            throw new ModelCardException(source, List.of(e.getMessage()));
        }
        problems = card.baseDirectory(baseDirectory).store(store).link();
        if (!problems.isEmpty()) {
            throw new ModelCardException(source, problems);
        }
        return card.build();
    }

    /** This card for a run whose inputs are {@code kind} (the card itself when it already is). */
    public ModelCard forInputs(InputKind kind) {
        Objects.requireNonNull(kind, "input kind");
        return kind == inputKind ? this : toBuilder().inputKind(kind).build();
    }

    /** The text put before each input of this run ({@code ""} for none). */
    public String inputPrefix() {
        return prefixes == null ? "" : prefixes.of(inputKind);
    }

    /**
     * The steps this card asks for after the session: its pooling; then L2 normalization for an
     * embedding model with {@link #normalize}, or the activation of a single-graph classifier.
     */
    public PostProcessing postProcessing() {
        PostProcessing pooled =
                PostProcessing.of(pooling == Pooling.CLS ? new ClsPooling() : new MeanPooling());
        if (task == ModelTask.CLASSIFICATION) {
            return pooled.then(classification.activationSteps());
        }
        return normalize ? pooled.then(PostProcessing.of(new L2Normalize())) : pooled;
    }

    /** Short identity for logs and outputs: {@code name@version}. */
    public String id() {
        return name + "@" + version;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
