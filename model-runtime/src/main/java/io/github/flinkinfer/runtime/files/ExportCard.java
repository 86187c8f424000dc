package io.github.flinkinfer.runtime.files;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.runtime.card.ModelCardException;
import io.github.flinkinfer.runtime.card.Pooling;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Writes a model card for a Hugging Face / sentence-transformers ONNX export directory, reading
 * what the export already says instead of asking the user: sha256s from the files, pooling from
 * {@code 1_Pooling/config.json}, max length from {@code sentence_bert_config.json} (or the
 * tokenizer's), the shape from {@code config.json}, normalization from {@code modules.json},
 * input and output names from the graph itself. What it cannot infer is reported all at once.
 *
 * <pre>{@code
 * ObjectNode card = ExportCard.from(Path.of("my-export"), new ExportCard.Overrides(...));
 * }</pre>
 */
public final class ExportCard {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Set<String> TOKEN_OUTPUTS = Set.of("last_hidden_state", "token_embeddings");

    /**
     * What the user says instead of (or besides) the export; null = read it from the export.
     *
     * @param name card name (default: the directory's name)
     * @param version card version (default: the first 12 hex digits of the graph's sha256)
     * @param onnx the graph, relative to the directory (default: model.onnx or onnx/model.onnx)
     * @param maxSequenceLength max tokens (default: from the export's configs)
     * @param pooling MEAN or CLS (default: from 1_Pooling/config.json)
     * @param queryPrefix text before each query (default: the export's "query" prompt)
     * @param passagePrefix text before each passage (default: its "passage" or "document" prompt)
     */
    public record Overrides(String name, String version, String onnx, Integer maxSequenceLength,
            Pooling pooling, String queryPrefix, String passagePrefix) {
        public static Overrides none() {
            return new Overrides(null, null, null, null, null, null, null);
        }
    }

    private final Path dir;
    private final Overrides overrides;
    private final List<String> problems = new ArrayList<>();
    private final ObjectNode card = JSON.createObjectNode();

    private ExportCard(Path dir, Overrides overrides) {
        this.dir = dir;
        this.overrides = overrides;
    }

    /** The card for the export in {@code dir}; throws {@link ModelCardException} with every gap. */
    public static ObjectNode from(Path dir, Overrides overrides) {
        ExportCard export = new ExportCard(dir.toAbsolutePath().normalize(), overrides);
        export.build();
        if (!export.problems.isEmpty()) {
            throw new ModelCardException("for export " + dir, export.problems);
        }
        return export.card;
    }

    /** Pretty JSON, as written to {@code card.json}. */
    public static String toJson(ObjectNode card) {
        try {
            return JSON.writeValueAsString(card) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void build() {
        JsonNode config = readJson("config.json", true);
        JsonNode pooling = readJson("1_Pooling/config.json", false);
        JsonNode sbert = readJson("sentence_bert_config.json", false);
        JsonNode tokenizerConfig = readJson("tokenizer_config.json", false);
        JsonNode modules = readJson("modules.json", false);
        JsonNode prompts = readJson("config_sentence_transformers.json", false).path("prompts");

        Path graph = graph();
        card.put("name", overrides.name() != null ? overrides.name() : dir.getFileName().toString());
        String graphSha = graph == null ? null : sha256(graph);
        card.put("version", overrides.version() != null ? overrides.version()
                : graphSha == null ? "" : graphSha.substring(0, 12));
        card.put("task", "EMBEDDING");
        if (graph != null) {
            card.set("onnx", file(dir.relativize(graph).toString(), graphSha));
            externalData(graph);
        }
        if (Files.isRegularFile(dir.resolve("tokenizer.json"))) {
            card.set("tokenizer", file("tokenizer.json", sha256(dir.resolve("tokenizer.json"))));
        } else {
            problems.add("tokenizer: no tokenizer.json in " + dir + "; save the fast tokenizer with"
                    + " tokenizer.save_pretrained(dir) (vocab.txt alone is not enough)");
        }
        maxLength(sbert, tokenizerConfig, config);
        if (graph != null) {
            graphNames(graph);
        }
        pooling(pooling, config);
        card.put("normalize", normalize(modules));
        prefixes(prompts);
        license();
        shape(config);
        card.put("notes", "Written by 'models card' from the export in " + dir.getFileName()
                + (config.hasNonNull("_name_or_path") ? " (" + config.get("_name_or_path").asText() + ")" : ""));
    }

    private Path graph() {
        if (overrides.onnx() != null) {
            Path p = dir.resolve(overrides.onnx()).normalize();
            if (p.startsWith(dir) && Files.isRegularFile(p)) {
                return p;
            }
            problems.add("onnx: " + overrides.onnx() + " is not a file inside " + dir);
            return null;
        }
        for (String candidate : List.of("model.onnx", "onnx/model.onnx")) {
            if (Files.isRegularFile(dir.resolve(candidate))) {
                return dir.resolve(candidate);
            }
        }
        problems.add("onnx: no model.onnx or onnx/model.onnx in " + dir
                + "; export one (optimum-cli export onnx) or name the graph with --onnx");
        return null;
    }

    private void externalData(Path graph) {
        var list = JSON.createArrayNode();
        for (String suffix : List.of("_data", ".data")) {
            Path data = graph.resolveSibling(graph.getFileName() + suffix);
            if (Files.isRegularFile(data)) {
                list.add(file(dir.relativize(data).toString(), sha256(data)));
            }
        }
        if (!list.isEmpty()) {
            card.set("externalData", list);
        }
    }

    private void maxLength(JsonNode sbert, JsonNode tokenizerConfig, JsonNode config) {
        int length = overrides.maxSequenceLength() != null ? overrides.maxSequenceLength()
                : sbert.path("max_seq_length").asInt(0);
        if (length == 0) {
            long tokenizerMax = tokenizerConfig.path("model_max_length").asLong(0);
            length = tokenizerMax > 0 && tokenizerMax <= 100_000 ? (int) tokenizerMax : 0;
        }
        int positions = config.path("max_position_embeddings").asInt(0);
        if (length == 0) {
            problems.add("maxSequenceLength: neither sentence_bert_config.json (max_seq_length) nor"
                    + " tokenizer_config.json (model_max_length) says it; give --max-length"
                    + (positions > 0 ? " (at most " + positions + ", config.json's max_position_embeddings)" : ""));
        } else if (positions > 0 && length > positions) {
            problems.add("maxSequenceLength: " + length + " is more than the model's " + positions
                    + " positions (config.json max_position_embeddings)");
        } else {
            card.put("maxSequenceLength", length);
        }
    }

    private void graphNames(Path graph) {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.NO_OPT);
            try (OrtSession session = env.createSession(graph.toString(), options)) {
                Set<String> inputs = session.getInputNames();
                ObjectNode names = card.putObject("inputs");
                for (String[] input : new String[][] {{"inputIds", "input_ids"}, {"attentionMask", "attention_mask"}}) {
                    if (inputs.contains(input[1])) {
                        names.put(input[0], input[1]);
                    } else {
                        problems.add("inputs: the graph has no input '" + input[1] + "' (it has " + inputs + ")");
                    }
                }
                if (inputs.contains("token_type_ids")) {
                    names.put("tokenTypeIds", "token_type_ids");
                } else {
                    names.putNull("tokenTypeIds");
                }
                Set<String> outputs = session.getOutputNames();
                String output = outputs.stream().filter(TOKEN_OUTPUTS::contains).findFirst()
                        .orElse(outputs.contains("sentence_embedding") ? "sentence_embedding" : null);
                if (output == null) {
                    problems.add("output: the graph has none of last_hidden_state, token_embeddings,"
                            + " sentence_embedding (it has " + outputs + ")");
                } else {
                    card.put("output", output);
                }
            }
        } catch (OrtException e) {
            problems.add("onnx: ONNX Runtime cannot load " + graph + ": " + e.getMessage());
        }
    }

    private void pooling(JsonNode pooling, JsonNode config) {
        if (overrides.pooling() != null) {
            card.put("pooling", overrides.pooling().name());
            return;
        }
        if (pooling.isEmpty()) {
            problems.add("pooling: no 1_Pooling/config.json (not a sentence-transformers export);"
                    + " give --pooling mean or cls, as the model was trained");
            return;
        }
        List<String> modes = new ArrayList<>();
        pooling.fields().forEachRemaining(f -> {
            if (f.getKey().startsWith("pooling_mode_") && f.getValue().asBoolean()) {
                modes.add(f.getKey().substring("pooling_mode_".length()));
            }
        });
        if (modes.equals(List.of("cls_token"))) {
            card.put("pooling", "CLS");
        } else if (modes.equals(List.of("mean_tokens"))) {
            card.put("pooling", "MEAN");
        } else {
            problems.add("pooling: 1_Pooling/config.json asks for " + modes
                    + "; only mean_tokens or cls_token alone are supported");
        }
        int dims = pooling.path("word_embedding_dimension").asInt(0);
        int hidden = config.path("hidden_size").asInt(0);
        if (dims > 0 && hidden > 0 && dims != hidden) {
            problems.add("pooling: word_embedding_dimension " + dims + " differs from config.json's"
                    + " hidden_size " + hidden);
        }
    }

    /** As modules.json says (a Normalize module); without it, normalized as retrieval wants. */
    private boolean normalize(JsonNode modules) {
        if (modules.isEmpty()) {
            return true;
        }
        for (JsonNode module : modules) {
            if (module.path("type").asText().endsWith(".Normalize")) {
                return true;
            }
        }
        return false;
    }

    private void prefixes(JsonNode prompts) {
        String query = overrides.queryPrefix() != null ? overrides.queryPrefix() : text(prompts, "query");
        String passage = overrides.passagePrefix() != null ? overrides.passagePrefix()
                : text(prompts, "passage") != null ? text(prompts, "passage") : text(prompts, "document");
        if (query != null || passage != null) {
            ObjectNode node = card.putObject("prefixes");
            if (query != null && !query.isEmpty()) {
                node.put("query", query);
            }
            if (passage != null && !passage.isEmpty()) {
                node.put("passage", passage);
            }
        }
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private void shape(JsonNode config) {
        String[][] fields = {{"layers", "num_hidden_layers"}, {"hidden", "hidden_size"},
                {"intermediate", "intermediate_size"}, {"heads", "num_attention_heads"}};
        ObjectNode shape = JSON.createObjectNode();
        for (String[] f : fields) {
            if (config.path(f[1]).asInt(0) > 0) {
                shape.put(f[0], config.get(f[1]).asInt());
            }
        }
        if (shape.size() == fields.length) {
            card.set("shape", shape);
        } else if (!config.isEmpty()) {
            problems.add("shape: config.json lacks some of num_hidden_layers, hidden_size,"
                    + " intermediate_size, num_attention_heads (a BERT-style encoder config)");
        }
    }

    private JsonNode readJson(String relative, boolean required) {
        Path p = dir.resolve(relative);
        if (!Files.isRegularFile(p)) {
            if (required) {
                problems.add(relative + ": missing in " + dir + " (the model's Hugging Face config;"
                        + " it gives the shape and the position limit)");
            }
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(p.toFile());
        } catch (IOException e) {
            problems.add(relative + ": not valid JSON: " + e.getMessage());
            return JSON.createObjectNode();
        }
    }

    private static ObjectNode file(String path, String sha256) {
        ObjectNode node = JSON.createObjectNode();
        node.put("path", path.replace('\\', '/'));
        node.put("sha256", sha256);
        return node;
    }

    private static String sha256(Path file) {
        return ModelFiles.sha256(file);
    }

    /** The {@code license:} line of README.md's front matter (as on the Hugging Face Hub). */
    private void license() {
        Path readme = dir.resolve("README.md");
        if (!Files.isRegularFile(readme)) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(readme);
            for (int i = 1; !lines.isEmpty() && lines.get(0).equals("---") && i < lines.size()
                    && !lines.get(i).equals("---"); i++) {
                if (lines.get(i).startsWith("license:")) {
                    card.put("license", lines.get(i).substring("license:".length()).trim());
                }
            }
        } catch (IOException e) {
            problems.add("README.md: cannot read it: " + e.getMessage());
        }
    }
}
