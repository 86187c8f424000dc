package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything needed to load and run one model: files with checksums, tokenizer, shapes and
 * post-processing. Loaded from JSON checked against {@code docs/model-card.schema.json} (see
 * docs/model-cards.md); built-in cards live under {@code models/} on the classpath.
 *
 * <pre>{@code
 * ModelCard card = ModelCard.resolve("all-minilm-l6-v2");       // built-in
 * ModelCard mine = ModelCard.resolve("/models/my-model/card.json"); // user-supplied
 * ModelCard remote = ModelCard.load("s3://models/my-model/card.json", store); // any file system
 * }</pre>
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL) // toJson() writes a card that loads back
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

    public String name;
    public String version;
    public ModelTask task = ModelTask.EMBEDDING;
    public ModelFile onnx;
    public ModelFile tokenizer;
    /**
     * ONNX external-data files (weights stored beside the graph), each checksum-verified and
     * confined to the card's directory; the graph is then loaded from its path so ONNX Runtime
     * finds them there. Not allowed for built-in (classpath) models.
     */
    public java.util.List<ModelFile> externalData = java.util.List.of();
    public int maxSequenceLength;
    public Inputs inputs = new Inputs();
    public String output = "last_hidden_state";
    public Pooling pooling = Pooling.MEAN;
    public boolean normalize = true;
    /** Text put before each input, by {@link InputKind}; what the model was trained with. */
    public Prefixes prefixes = new Prefixes();
    /** Licence of the model weights (SPDX id, e.g. {@code MIT}), shown by the models command. */
    public String license;
    /** Model shape, used to count FLOPs in the benchmark and the report. */
    public Shape shape;
    /** Free-text notes shown in reports (e.g. "int8 activations are quantized per batch"). */
    public String notes;
    /**
     * Embed → head chain: the base embedding model (a built-in name, or a card file in this
     * card's directory) whose pooled output feeds {@code onnx}; tokenizer, inputs and shape come
     * from it. Null for a single graph.
     */
    public String embedding;
    /** Labels, activation and thresholds; required for {@link Task#CLASSIFICATION}. */
    public Classification classification;

    /** The resolved {@link #embedding} card, or null. */
    @JsonIgnore public ModelCard base;

    /**
     * Directory that relative file paths resolve against: a local path, or the card's location in
     * its {@link #store} up to the last {@code /}; null for built-in cards.
     */
    @JsonIgnore public String baseDirectory;

    /** Where this card's files are read from when they are not local; null for local and built-in cards. */
    @JsonIgnore public ModelStore store;

    /** What this run's inputs are; picks the prefix. Set per run, not part of the card file. */
    @JsonIgnore public InputKind inputKind = InputKind.PASSAGE;

    /** Input prefixes (or instructions) per {@link InputKind}; null or empty = none. */
    public static final class Prefixes implements Serializable {
        private static final long serialVersionUID = 1L;
        public String query;
        public String passage;

        /** The prefix for {@code kind}, {@code ""} when none. */
        public String of(InputKind kind) {
            String p = kind == InputKind.QUERY ? query : passage;
            return p == null ? "" : p;
        }
    }

    /** ONNX graph input names. */
    public static final class Inputs implements Serializable {
        private static final long serialVersionUID = 1L;
        public String inputIds = "input_ids";
        public String attentionMask = "attention_mask";
        /** Null when the graph has no token type input. */
        public String tokenTypeIds = "token_type_ids";
    }

    /** Transformer encoder shape. */
    public static final class Shape implements Serializable {
        private static final long serialVersionUID = 1L;
        public int layers;
        public int hidden;
        public int intermediate;
        public int heads;
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
        ModelCard card;
        try {
            card = JSON.treeToValue(tree, ModelCard.class);
        } catch (IOException | IllegalArgumentException e) {
            throw new ModelCardException(source, List.of(e.getMessage()));
        }
        card.baseDirectory = baseDirectory;
        card.store = store;
        problems = card.problems();
        if (!problems.isEmpty()) {
            throw new ModelCardException(source, problems);
        }
        return card;
    }

    /** The card's problems beyond the schema (conditional fields, the linked embedding). */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (embedding != null) {
            linkBase(problems);
        } else {
            check(tokenizer != null, "tokenizer: missing (required unless embedding names a base model): "
                    + "the Hugging Face tokenizer.json with its sha256", problems);
            check(maxSequenceLength > 1, "maxSequenceLength: missing (required unless embedding names a"
                    + " base model): the most tokens per input, e.g. 512", problems);
        }
        check(task != ModelTask.CLASSIFICATION || classification != null,
                "classification: missing (required for task CLASSIFICATION): labels and thresholds", problems);
        check(task == ModelTask.CLASSIFICATION || embedding == null,
                "embedding: only a CLASSIFICATION card names an embedding model", problems);
        if (classification != null) {
            classification.problems().forEach(p -> problems.add("classification." + p));
        }
        return problems;
    }

    /** Resolves {@link #embedding} and takes the token-side settings from it. */
    private void linkBase(List<String> problems) {
        String key = embedding.toLowerCase(Locale.ROOT);
        try {
            if (BUILT_IN.contains(key)) {
                base = builtIn(key);
            } else if (baseDirectory != null && !embedding.contains("/") && !embedding.contains("\\")
                    && !embedding.contains("..")) {
                base = store != null ? load(baseDirectory + "/" + embedding, store)
                        : load(Path.of(baseDirectory).resolve(embedding));
            } else {
                problems.add("embedding: '" + embedding + "' must be a built-in model " + BUILT_IN
                        + " or a card file in the same directory");
                return;
            }
        } catch (IllegalArgumentException e) {
            problems.add("embedding: " + e.getMessage());
            return;
        }
        if (base.task != ModelTask.EMBEDDING) {
            problems.add("embedding: needs an embedding model, not " + base.task);
            return;
        }
        tokenizer = tokenizer == null ? base.tokenizer : tokenizer;
        maxSequenceLength = maxSequenceLength == 0
                ? base.maxSequenceLength : Math.min(maxSequenceLength, base.maxSequenceLength);
        inputs = base.inputs;
        shape = shape == null ? base.shape : shape;
        boolean ownPrefixes = prefixes != null && (prefixes.query != null || prefixes.passage != null);
        prefixes = ownPrefixes ? prefixes : base.prefixes;
    }

    private static void check(boolean ok, String problem, List<String> problems) {
        if (!ok) {
            problems.add(problem);
        }
    }

    /** Sets what this run's inputs are (cards are fresh per {@link #resolve}); returns this card. */
    public ModelCard forInputs(InputKind kind) {
        inputKind = Objects.requireNonNull(kind, "input kind");
        return this;
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
