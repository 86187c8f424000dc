package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnx.proto.OnnxMl;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graph whose weights live in an ONNX external-data file: the file is checksum-verified and
 * confined to the card's directory, and ONNX Runtime loads it from there.
 */
class ExternalDataTest {
    @TempDir Path dir;

    /** last_hidden_state = unsqueeze(float(attention_mask)) · W, with W [1, 2] stored externally. */
    static byte[] graphWithExternalWeights() {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("external");
        g.addInput(tensor("input_ids", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addInput(tensor("attention_mask", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addOutput(tensor("last_hidden_state", OnnxMl.TensorProto.DataType.FLOAT, "b", "s", "h"));
        g.addInitializer(OnnxMl.TensorProto.newBuilder().setName("W").addDims(1).addDims(2)
                .setDataType(OnnxMl.TensorProto.DataType.FLOAT.getNumber())
                .setDataLocation(OnnxMl.TensorProto.DataLocation.EXTERNAL)
                .addExternalData(entry("location", "weights.bin"))
                .addExternalData(entry("offset", "0"))
                .addExternalData(entry("length", "8")));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("Cast").addInput("attention_mask").addOutput("m")
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("to")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT)
                        .setI(OnnxMl.TensorProto.DataType.FLOAT.getNumber())));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("Unsqueeze").addInput("m").addOutput("m3")
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axes")
                        .setType(OnnxMl.AttributeProto.AttributeType.INTS).addInts(2)));
        g.addNode(OnnxMl.NodeProto.newBuilder().setOpType("MatMul").addInput("m3").addInput("W")
                .addOutput("last_hidden_state"));
        return OnnxMl.ModelProto.newBuilder().setIrVersion(7).setProducerName("test")
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(11))
                .setGraph(g).build().toByteArray();
    }

    private static OnnxMl.StringStringEntryProto entry(String k, String v) {
        return OnnxMl.StringStringEntryProto.newBuilder().setKey(k).setValue(v).build();
    }

    private static OnnxMl.ValueInfoProto tensor(String name, OnnxMl.TensorProto.DataType type, String... dims) {
        OnnxMl.TensorShapeProto.Builder shape = OnnxMl.TensorShapeProto.newBuilder();
        for (String d : dims) {
            shape.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam(d));
        }
        return OnnxMl.ValueInfoProto.newBuilder().setName(name).setType(OnnxMl.TypeProto.newBuilder()
                .setTensorType(OnnxMl.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape)))
                .build();
    }

    private Path card(String weightsPath) throws Exception {
        byte[] graph = graphWithExternalWeights();
        Files.write(dir.resolve("model.onnx"), graph);
        byte[] weights = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(3f).putFloat(4f).array();
        Files.write(dir.resolve("weights.bin"), weights);
        byte[] tokenizer;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            tokenizer = in.readAllBytes();
        }
        Files.write(dir.resolve("tokenizer.json"), tokenizer);
        Path card = dir.resolve("card.json");
        Files.writeString(card, "{\"name\":\"ext\",\"version\":\"1\",\"maxSequenceLength\":16,"
                + "\"onnx\":{\"path\":\"model.onnx\",\"sha256\":\"" + ModelFiles.sha256(graph) + "\"},"
                + "\"tokenizer\":{\"path\":\"tokenizer.json\",\"sha256\":\"" + ModelFiles.sha256(tokenizer) + "\"},"
                + "\"externalData\":[{\"path\":\"" + weightsPath + "\",\"sha256\":\"" + ModelFiles.sha256(weights) + "\"}],"
                + "\"inputs\":{\"inputIds\":\"input_ids\",\"attentionMask\":\"attention_mask\",\"tokenTypeIds\":null}}");
        return card;
    }

    @Test
    void verifiedExternalWeightsAreLoadedFromTheCardDirectory() throws Exception {
        ModelCard card = ModelCard.load(card("weights.bin"));
        try (OnnxModel m = OnnxModel.load(card, RuntimeOptions.defaults())) {
            float[] v = m.infer(List.of(new int[] {101, 7, 102})).vectors()[0];
            assertThat(v).containsExactly(new float[] {0.6f, 0.8f}, org.assertj.core.data.Offset.offset(1e-6f));
        }
    }

    @Test
    void tamperedExternalWeightsAreRefused() throws Exception {
        ModelCard card = ModelCard.load(card("weights.bin"));
        Files.write(dir.resolve("weights.bin"), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putFloat(3f).putFloat(5f).array());
        assertThat(integrityError(() -> OnnxModel.load(card, RuntimeOptions.defaults())))
                .hasMessageContaining("Checksum mismatch")
                .hasMessageContaining(dir.resolve("weights.bin").toString());
    }

    @Test
    void externalDataOutsideTheCardDirectoryIsRefused() throws Exception {
        ModelCard card = ModelCard.load(card("../weights.bin"));
        assertThat(integrityError(() -> OnnxModel.load(card, RuntimeOptions.defaults())))
                .hasMessageContaining("inside the model card's directory");
    }

    /** The ModelIntegrityException thrown (possibly wrapped) by {@code load}. */
    private static ModelIntegrityException integrityError(Runnable load) {
        try {
            load.run();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof ModelIntegrityException mie) {
                    return mie;
                }
            }
            throw e;
        }
        throw new AssertionError("expected the load to be refused");
    }

}
