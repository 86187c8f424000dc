package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import io.github.flinkinfer.runtime.card.ModelCard.Inputs;
import io.github.flinkinfer.runtime.card.ModelCard.Prefixes;
import io.github.flinkinfer.runtime.card.ModelCard.Shape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds a card: Jackson binds a card file through it (names as in the file, defaults as in
 * the schema), {@link ModelCard#toBuilder} copies a card to change it. {@link #build} only assembles;
 * a card file's checks run in {@link ModelCard#load}.
 *
 * <pre>{@code
 * ModelCard local = ModelCard.builtIn("all-minilm-l6-v2").toBuilder()
 *         .onnx(new ModelFile("model.onnx", sha)).baseDirectory("/models/minilm").build();
 * }</pre>
 */
@JsonPOJOBuilder(withPrefix = "")
@JsonIgnoreProperties(ignoreUnknown = false)
public final class ModelCardBuilder {
    String name;
    String version;
    ModelTask task = ModelTask.EMBEDDING;
    ModelFile onnx;
    ModelFile tokenizer;
    List<ModelFile> externalData = List.of();
    int maxSequenceLength;
    Inputs inputs = Inputs.defaults();
    String output = "last_hidden_state";
    Pooling pooling = Pooling.MEAN;
    boolean normalize = true;
    Prefixes prefixes = Prefixes.none();
    String license;
    Shape shape;
    String notes;
    String embedding;
    Classification classification;
    ModelCard base;
    String baseDirectory;
    ModelStore store;
    InputKind inputKind = InputKind.PASSAGE;

    ModelCardBuilder() {}

    ModelCardBuilder(ModelCard c) {
        name = c.name;
        version = c.version;
        task = c.task;
        onnx = c.onnx;
        tokenizer = c.tokenizer;
        externalData = c.externalData;
        maxSequenceLength = c.maxSequenceLength;
        inputs = c.inputs;
        output = c.output;
        pooling = c.pooling;
        normalize = c.normalize;
        prefixes = c.prefixes;
        license = c.license;
        shape = c.shape;
        notes = c.notes;
        embedding = c.embedding;
        classification = c.classification;
        base = c.base;
        baseDirectory = c.baseDirectory;
        store = c.store;
        inputKind = c.inputKind;
    }

    public ModelCardBuilder name(String name) {
        this.name = name;
        return this;
    }

    public ModelCardBuilder version(String version) {
        this.version = version;
        return this;
    }

    public ModelCardBuilder task(ModelTask task) {
        this.task = task;
        return this;
    }

    public ModelCardBuilder onnx(ModelFile onnx) {
        this.onnx = onnx;
        return this;
    }

    public ModelCardBuilder tokenizer(ModelFile tokenizer) {
        this.tokenizer = tokenizer;
        return this;
    }

    public ModelCardBuilder externalData(List<ModelFile> externalData) {
        this.externalData = externalData;
        return this;
    }

    public ModelCardBuilder maxSequenceLength(int maxSequenceLength) {
        this.maxSequenceLength = maxSequenceLength;
        return this;
    }

    public ModelCardBuilder inputs(Inputs inputs) {
        this.inputs = inputs;
        return this;
    }

    public ModelCardBuilder output(String output) {
        this.output = output;
        return this;
    }

    public ModelCardBuilder pooling(Pooling pooling) {
        this.pooling = pooling;
        return this;
    }

    public ModelCardBuilder normalize(boolean normalize) {
        this.normalize = normalize;
        return this;
    }

    public ModelCardBuilder prefixes(Prefixes prefixes) {
        this.prefixes = prefixes;
        return this;
    }

    public ModelCardBuilder license(String license) {
        this.license = license;
        return this;
    }

    public ModelCardBuilder shape(Shape shape) {
        this.shape = shape;
        return this;
    }

    public ModelCardBuilder notes(String notes) {
        this.notes = notes;
        return this;
    }

    public ModelCardBuilder embedding(String embedding) {
        this.embedding = embedding;
        return this;
    }

    public ModelCardBuilder classification(Classification classification) {
        this.classification = classification;
        return this;
    }

    /** The resolved {@code embedding} card; set by {@link ModelCard#load}, or by hand in tests. */
    @JsonIgnore
    public ModelCardBuilder base(ModelCard base) {
        this.base = base;
        return this;
    }

    @JsonIgnore
    public ModelCardBuilder baseDirectory(String baseDirectory) {
        this.baseDirectory = baseDirectory;
        return this;
    }

    @JsonIgnore
    public ModelCardBuilder store(ModelStore store) {
        this.store = store;
        return this;
    }

    @JsonIgnore
    public ModelCardBuilder inputKind(InputKind inputKind) {
        this.inputKind = inputKind;
        return this;
    }

    public ModelCard build() {
        return new ModelCard(this);
    }

    /**
     * Links the base of an embed → head chain and checks what the schema cannot (conditional
     * fields, the linked embedding); returns every problem found.
     */
    List<String> link() {
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

    /** Resolves {@code embedding} and takes the token-side settings from it. */
    private void linkBase(List<String> problems) {
        String key = embedding.toLowerCase(Locale.ROOT);
        try {
            if (ModelCard.BUILT_IN.contains(key)) {
                base = ModelCard.builtIn(key);
            } else if (baseDirectory != null && !embedding.contains("/") && !embedding.contains("\\")
                    && !embedding.contains("..")) {
                base = store != null ? ModelCard.load(baseDirectory + "/" + embedding, store)
                        : ModelCard.load(Path.of(baseDirectory).resolve(embedding));
            } else {
                problems.add("embedding: '" + embedding + "' must be a built-in model " + ModelCard.BUILT_IN
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
}
