package io.github.flinkinfer.training;

import ai.onnx.proto.OnnxMl;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.evaluation.LabelEvaluation;
import org.tribuo.classification.evaluation.LabelEvaluator;
import org.tribuo.classification.sgd.linear.LinearSGDModel;
import org.tribuo.classification.sgd.linear.LinearSGDTrainer;
import org.tribuo.classification.sgd.objectives.LogMulticlass;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.optimisers.AdaGrad;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Trains the {@code spam-assassin-minilm} moderation head: logistic regression (Tribuo {@link
 * LinearSGDTrainer} with {@link LogMulticlass}, fixed seed) on all-MiniLM-L6-v2 sentence
 * embeddings of the SpamAssassin train split, evaluated on the held-out test split, exported to
 * ONNX (Tribuo's {@code ONNXExportable}: Gemm then Softmax) with a model card beside it.
 *
 * <pre>{@code
 * java ... SpamModelTrainer datasets/build/spam-assassin model-runtime/src/main/resources/models
 * }</pre>
 */
public final class SpamModelTrainer {
    static final String NAME = "spam-assassin-minilm";
    static final String BASE = "all-minilm-l6-v2";
    static final int MAX_LENGTH = 128;
    static final long SEED = 20240611L;
    static final int EPOCHS = 20;
    static final float SPAM_THRESHOLD = 0.5f;

    private static final ObjectMapper JSON = new ObjectMapper();

    private SpamModelTrainer() {}

    /** One labeled email of the prepared split. */
    record Email(String id, String label, String text) {}

    public static void main(String[] args) throws Exception {
        Path data = Path.of(args.length > 0 ? args[0] : "datasets/build/spam-assassin");
        Path models = Path.of(args.length > 1 ? args[1] : "model-runtime/src/main/resources/models");
        List<Email> train = read(data.resolve("train.jsonl"));
        List<Email> test = read(data.resolve("test.jsonl"));
        ModelCard base = ModelCard.resolve(BASE);
        RuntimeOptions options = RuntimeOptions.defaults().withIntraOpThreads(0).withMaxSequenceLength(MAX_LENGTH);

        long t0 = System.nanoTime();
        float[][] trainX = embed(base, options, train);
        float[][] testX = embed(base, options, test);
        System.out.printf(Locale.ROOT, "embedded %d + %d emails in %.1f s%n",
                train.size(), test.size(), (System.nanoTime() - t0) / 1e9);

        String[] features = featureNames(trainX[0].length);
        LabelFactory labels = new LabelFactory();
        MutableDataset<Label> trainSet = dataset("spam-assassin train", train, trainX, features, labels);
        MutableDataset<Label> testSet = dataset("spam-assassin test", test, testX, features, labels);
        LinearSGDTrainer trainer =
                new LinearSGDTrainer(new LogMulticlass(), new AdaGrad(0.5, 0.1), EPOCHS, 10_000, 1, SEED);
        LinearSGDModel model = (LinearSGDModel) trainer.train(trainSet);
        for (int i = 0; i < features.length; i++) {
            // The ONNX input is the embedding as is: feature i must be column i.
            if (model.getFeatureIDMap().get(features[i]).getID() != i) {
                throw new IllegalStateException("feature " + features[i] + " is not column " + i);
            }
        }
        List<String> labelOrder = new ArrayList<>();
        for (int i = 0; i < model.getOutputIDInfo().size(); i++) {
            labelOrder.add(model.getOutputIDInfo().getOutput(i).getLabel());
        }

        LabelEvaluation eval = new LabelEvaluator().evaluate(model, testSet);
        Label spam = new Label("spam");
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("model", NAME);
        metrics.put("train", train.size());
        metrics.put("test", test.size());
        metrics.put("accuracy", eval.accuracy());
        metrics.put("spamPrecision", eval.precision(spam));
        metrics.put("spamRecall", eval.recall(spam));
        metrics.put("spamF1", eval.f1(spam));
        metrics.put("confusion", eval.getConfusionMatrix().toString());
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(metrics));
        JSON.writerWithDefaultPrettyPrinter().writeValue(data.resolve("metrics.json").toFile(), metrics);

        byte[] onnx = reproducible(model.exportONNXModel("io.github.flinkinfer", 1L)).toByteArray();
        Files.createDirectories(models);
        Path head = models.resolve(NAME + "-head.onnx");
        Files.write(head, onnx);
        writeCard(models.resolve(NAME + ".json"), head, ModelFiles.sha256(onnx), labelOrder, metrics);
        System.out.println("wrote " + head + " and " + models.resolve(NAME + ".json"));
    }

    /**
     * Tribuo's provenance (in the doc strings and metadata) holds timestamps, the Java version and
     * local paths: replace it with a fixed description so equal weights give equal bytes (and an
     * equal sha256 in the card).
     */
    static OnnxMl.ModelProto reproducible(OnnxMl.ModelProto exported) {
        return exported.toBuilder()
                .clearMetadataProps()
                .setDocString(String.format(Locale.ROOT,
                        "%s head: Tribuo 4.3.2 LinearSGDModel (LogMulticlass, AdaGrad 0.5, %d epochs,"
                                + " seed %d) on %s embeddings; datasets/build-spam-model.sh",
                        NAME, EPOCHS, SEED, BASE))
                .setGraph(exported.getGraph().toBuilder().clearDocString())
                .build();
    }

    static List<Email> read(Path jsonl) throws IOException {
        List<Email> out = new ArrayList<>();
        for (String line : Files.readAllLines(jsonl)) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                out.add(new Email(n.get("id").asText(), n.get("label").asText(), n.get("text").asText()));
            }
        }
        return out;
    }

    /** Pooled, normalized embeddings, batched by length (fp32 outputs do not depend on batching). */
    static float[][] embed(ModelCard base, RuntimeOptions options, List<Email> emails) {
        float[][] out = new float[emails.size()][];
        try (TextTokenizer tokenizer = TextTokenizer.load(base, options);
                OnnxModel model = OnnxModel.load(base, options)) {
            List<int[]> ids = new ArrayList<>();
            for (Email e : emails) {
                ids.add(tokenizer.encode(e.text()).ids());
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingInt(i -> ids.get(i).length));
            for (int from = 0; from < order.size(); from += 32) {
                List<Integer> idx = order.subList(from, Math.min(order.size(), from + 32));
                List<int[]> batch = new ArrayList<>();
                idx.forEach(i -> batch.add(ids.get(i)));
                float[][] vectors = model.infer(batch).vectors();
                for (int j = 0; j < idx.size(); j++) {
                    out[idx.get(j)] = vectors[j];
                }
            }
        }
        return out;
    }

    static String[] featureNames(int n) {
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = String.format(Locale.ROOT, "e%04d", i);
        }
        return names;
    }

    static MutableDataset<Label> dataset(
            String name, List<Email> emails, float[][] x, String[] features, LabelFactory labels) {
        MutableDataset<Label> set = new MutableDataset<>(new SimpleDataSourceProvenance(name, labels), labels);
        for (int i = 0; i < emails.size(); i++) {
            double[] values = new double[x[i].length];
            for (int j = 0; j < values.length; j++) {
                values[j] = x[i][j];
            }
            set.add(new ArrayExample<>(labels.generateOutput(emails.get(i).label()), features, values));
        }
        return set;
    }

    static void writeCard(Path file, Path head, String sha256, List<String> labels, Map<String, Object> m)
            throws IOException {
        ObjectNode card = JSON.createObjectNode();
        card.put("name", NAME);
        card.put("version", "1-tribuo-4.3.2-seed" + SEED);
        card.put("task", "CLASSIFICATION");
        card.put("embedding", BASE);
        ObjectNode onnx = card.putObject("onnx");
        onnx.put("path", "classpath:models/" + head.getFileName());
        onnx.put("sha256", sha256);
        card.put("maxSequenceLength", MAX_LENGTH);
        ObjectNode c = card.putObject("classification");
        labels.forEach(c.putArray("labels")::add);
        c.put("activation", "NONE");
        c.putObject("thresholds").put("spam", SPAM_THRESHOLD);
        c.put("headInput", "input");
        c.put("headOutput", "output");
        card.put("notes", String.format(Locale.ROOT,
                "Spam filter: Tribuo logistic regression (LinearSGD, LogMulticlass, AdaGrad, %d epochs,"
                        + " seed %d) on %s embeddings (max %d tokens) of the SpamAssassin public corpus"
                        + " train split (%s emails); its ONNX export ends in Softmax, hence activation"
                        + " NONE. Held-out split (%s emails): accuracy %.4f, spam precision %.4f,"
                        + " spam recall %.4f. Trained by datasets/build-spam-model.sh; see docs/moderation.md.",
                EPOCHS, SEED, BASE, MAX_LENGTH, m.get("train"), m.get("test"), m.get("accuracy"),
                m.get("spamPrecision"), m.get("spamRecall")));
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(card) + "\n");
    }
}
