package io.github.flinkinfer.operators.run;

import ai.onnx.proto.OnnxMl;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real ONNX graph, written with the ONNX protobuf classes, that pools itself: for an input of
 * {@code n} real tokens it outputs {@code [n, sqrt(n - 4), 1 / (n - 5)]}, so inputs of fewer
 * than 4 tokens give NaN, inputs of exactly 5 tokens +Infinity, all others finite values.
 */
final class NonFiniteModel {
    private NonFiniteModel() {}

    /** Writes graph, tokenizer and card into {@code dir}; the factory opens them with ONNX Runtime. */
    static ModelRuntimeFactory write(Path dir) throws Exception {
        byte[] graph = graph().toByteArray();
        Files.write(dir.resolve("nan.onnx"), graph);
        String tokenizerSha = ModelCard.builtIn("all-minilm-l6-v2").tokenizer.sha256();
        try (var in = NonFiniteModel.class.getClassLoader().getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            Files.write(dir.resolve("tokenizer.json"), in.readAllBytes());
        }
        Path card = dir.resolve("nan.json");
        Files.writeString(card, "{\"name\":\"nan\",\"version\":\"1\",\"task\":\"EMBEDDING\","
                + "\"onnx\":{\"path\":\"nan.onnx\",\"sha256\":\"" + ModelFiles.sha256(graph) + "\"},"
                + "\"tokenizer\":{\"path\":\"tokenizer.json\",\"sha256\":\"" + tokenizerSha + "\"},"
                + "\"maxSequenceLength\":16,\"inputs\":{\"tokenTypeIds\":null},"
                + "\"output\":\"sentence_embedding\",\"normalize\":false}");
        return ModelRuntimeFactory.onnx(ModelCard.load(card), RuntimeOptions.defaults());
    }

    /** input_ids, attention_mask [b, s] int64 → sentence_embedding [b, 3] (see class doc). */
    static OnnxMl.ModelProto graph() {
        OnnxMl.GraphProto.Builder g = OnnxMl.GraphProto.newBuilder().setName("non-finite");
        g.addInput(tensor("input_ids", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addInput(tensor("attention_mask", OnnxMl.TensorProto.DataType.INT64, "b", "s"));
        g.addOutput(tensor("sentence_embedding", OnnxMl.TensorProto.DataType.FLOAT, "b", "3"));
        g.addInitializer(scalar("four", 4f));
        g.addInitializer(scalar("five", 5f));
        g.addNode(node("Cast", "attention_mask", "mask_f").addAttribute(OnnxMl.AttributeProto.newBuilder()
                .setName("to").setType(OnnxMl.AttributeProto.AttributeType.INT)
                .setI(OnnxMl.TensorProto.DataType.FLOAT.getNumber())));
        g.addNode(node("ReduceSum", "mask_f", "n")
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axes")
                        .setType(OnnxMl.AttributeProto.AttributeType.INTS).addInts(1))
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("keepdims")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(1)));
        g.addNode(node("Sub", "n", "n_minus_4").addInput("four"));
        g.addNode(node("Sqrt", "n_minus_4", "root"));
        g.addNode(node("Sub", "n", "n_minus_5").addInput("five"));
        g.addNode(node("Reciprocal", "n_minus_5", "inverse"));
        g.addNode(node("Concat", "n", "sentence_embedding").addInput("root").addInput("inverse")
                .addAttribute(OnnxMl.AttributeProto.newBuilder().setName("axis")
                        .setType(OnnxMl.AttributeProto.AttributeType.INT).setI(1)));
        return OnnxMl.ModelProto.newBuilder()
                .setIrVersion(7)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(11))
                .setGraph(g)
                .build();
    }

    private static OnnxMl.NodeProto.Builder node(String op, String input, String output) {
        return OnnxMl.NodeProto.newBuilder().setOpType(op).addInput(input).addOutput(output);
    }

    private static OnnxMl.TensorProto scalar(String name, float value) {
        return OnnxMl.TensorProto.newBuilder().setName(name)
                .setDataType(OnnxMl.TensorProto.DataType.FLOAT.getNumber()).addFloatData(value).build();
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
