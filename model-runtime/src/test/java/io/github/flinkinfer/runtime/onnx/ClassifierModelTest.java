package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.onnx.proto.OnnxMl;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassifierModelTest {
    @TempDir Path dir;

    private static final RuntimeOptions OPTIONS = RuntimeOptions.defaults();
    /** The classification section with labels a and b, as a card field. */
    private static final String LABELS_AB = ",\"classification\":{\"labels\":[\"a\",\"b\"]}";

    @Test
    void builtInSpamFilterChainsEmbeddingAndHead() {
        ModelCard card = ModelCard.resolve("spam-assassin-minilm");
        assertThat(card.task).isEqualTo(ModelTask.CLASSIFICATION);
        assertThat(card.base.name).isEqualTo("all-minilm-l6-v2");
        assertThat(card.tokenizer.sha256()).isEqualTo(card.base.tokenizer.sha256());
        assertThat(card.maxSequenceLength).isEqualTo(128);
        assertThat(card.classification.labels).containsExactlyInAnyOrder("ham", "spam");
        assertThat(card.classification.thresholds).containsKey("spam");
        try (TextTokenizer tokenizer = TextTokenizer.load(card, OPTIONS);
                ModelRuntime model = ClassifierModel.load(card, OPTIONS)) {
            List<int[]> batch = List.of(
                    tokenizer.encode("Subject: Re: patch for the build script\nThanks, I applied your"
                            + " patch to the CVS tree; the nightly build passes again.").ids(),
                    tokenizer.encode("Subject: FREE MONEY!!! Act now\nYou have been selected to receive"
                            + " $1,000,000 cash. Click here to claim your prize, limited time offer,"
                            + " remove me from this list").ids());
            float[][] scores = model.infer(batch).vectors();
            Classification c = card.classification;
            for (float[] row : scores) {
                assertThat(row).hasSize(2);
                assertThat(row[0] + row[1]).isCloseTo(1f, within(1e-5f));
            }
            assertThat(c.decide(scores[0]).label()).isEqualTo("ham");
            assertThat(c.decide(scores[0]).flagged()).isFalse();
            assertThat(c.decide(scores[1]).label()).isEqualTo("spam");
            assertThat(c.decide(scores[1]).flagged()).isTrue();
        }
    }

    @Test
    void tamperedHeadIsRefused() throws Exception {
        Files.write(dir.resolve("head.onnx"), lengthClassifier().toByteArray());
        Path card = headCard("all-minilm-l6-v2", LABELS_AB);
        ModelCard loaded = ModelCard.load(card);
        assertThatThrownBy(() -> ClassifierModel.load(loaded, OPTIONS))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("Checksum mismatch");
    }

    @Test
    void embeddingMustBeBuiltInOrBesideTheCard() throws Exception {
        Path card = headCard("../elsewhere/card.json", LABELS_AB);
        assertThatThrownBy(() -> ModelCard.load(card)).hasMessageContaining("same directory");
    }

    @Test
    void classificationCardNeedsLabels() throws Exception {
        Path card = headCard("all-minilm-l6-v2", "");
        assertThatThrownBy(() -> ModelCard.load(card)).hasMessageContaining("classification");
    }

    /** A single graph from token inputs to logits [n, -n] (n = real tokens), softmaxed by the card. */
    @Test
    void singleGraphClassifierGetsSoftmaxFromTheCard() throws Exception {
        byte[] graph = lengthClassifier().toByteArray();
        Files.write(dir.resolve("len.onnx"), graph);
        String tokenizerSha = ModelCard.builtIn("all-minilm-l6-v2").tokenizer.sha256();
        try (var in = getClass().getClassLoader().getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            Files.write(dir.resolve("tokenizer.json"), in.readAllBytes());
        }
        Path card = writeCard("{\"name\":\"len\",\"version\":\"1\",\"task\":\"CLASSIFICATION\","
                + "\"onnx\":{\"path\":\"len.onnx\",\"sha256\":\"" + ModelFiles.sha256(graph) + "\"},"
                + "\"tokenizer\":{\"path\":\"tokenizer.json\",\"sha256\":\"" + tokenizerSha + "\"},"
                + "\"maxSequenceLength\":16,\"inputs\":{\"tokenTypeIds\":null},\"output\":\"logits\","
                + "\"classification\":{\"labels\":[\"long\",\"short\"],\"thresholds\":{\"long\":0.99}}}");
        try (ModelRuntime model = ClassifierModel.load(ModelCard.load(card), OPTIONS)) {
            float[][] scores = model.infer(List.of(new int[] {101, 102}, new int[] {101, 7, 8, 102})).vectors();
            double p2 = 1 / (1 + Math.exp(-4)); // softmax([2, -2])[0]
            assertThat(scores[0][0]).isCloseTo((float) p2, within(1e-6f));
            assertThat(scores[1][0]).isCloseTo((float) (1 / (1 + Math.exp(-8))), within(1e-6f));
            assertThat(scores[0][0] + scores[0][1]).isCloseTo(1f, within(1e-6f));
            Classification c = model.card().classification;
            assertThat(c.decide(scores[0]).flagged()).isFalse();
            assertThat(c.decide(scores[1]).flagged()).isTrue();
        }
    }

    /** A classification card {@code h} over {@code embedding} whose head.onnx sha256 is all zeros. */
    private Path headCard(String embedding, String classification) throws Exception {
        return writeCard("{\"name\":\"h\",\"version\":\"1\",\"task\":\"CLASSIFICATION\","
                + "\"embedding\":\"" + embedding + "\",\"onnx\":{\"path\":\"head.onnx\",\"sha256\":\""
                + "0".repeat(64) + "\"}" + classification + "}");
    }

    private Path writeCard(String json) throws Exception {
        Path file = dir.resolve("card.json");
        Files.writeString(file, json);
        return file;
    }

    /** input_ids, attention_mask [b, s] int64 → logits [b, 2] = [sum(mask), -sum(mask)]. */
    static OnnxMl.ModelProto lengthClassifier() {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("length");
        g.addInput(tensor("input_ids", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addInput(tensor("attention_mask", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addOutput(tensor("logits", OnnxMl.TensorProto.DataType.FLOAT, "b", "2"));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("Cast").addInput("attention_mask")
                .addOutput("mask_f").addAttribute(OnnxMl.AttributeProto.newBuilder().setName("to")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT)
                        .setI(OnnxMl.TensorProto.DataType.FLOAT.getNumber())));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("ReduceSum").addInput("mask_f").addOutput("n")
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axes")
                        .setType(OnnxMl.AttributeProto.AttributeType.INTS).addInts(1))
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("keepdims")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(1)));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("Neg").addInput("n").addOutput("minus_n"));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("Concat").addInput("n").addInput("minus_n")
                .addOutput("logits").addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axis")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(1)));
        return OnnxMl.ModelProto.newBuilder()
                .setIrVersion(7)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(11))
                .setGraph(g)
                .build();
    }

    private static OnnxMl.ValueInfoProto tensor(String name, OnnxMl.TensorProto.DataType type, String... dims) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        for (String d : dims) {
            OnnxMl.TensorShapeProto.Dimension.Builder dim = OnnxMl.TensorShapeProto.Dimension.newBuilder();
            if (d.matches("\\d+")) {
                dim.setDimValue(Long.parseLong(d));
            } else {
                dim.setDimParam(d);
            }
            shape.addDim(dim);
        }
        return OnnxMl.ValueInfoProto.newBuilder().setName(name)
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                        .setElemType(type.getNumber()).setShape(shape)))
                .build();
    }
}
