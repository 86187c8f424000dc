package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ReferenceComparison;
import io.github.flinkinfer.runtime.Vectors;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.Pooling;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pooling inside the graph ({@link DevicePooling}) against the host's, with the real
 * all-MiniLM-L6-v2 on ONNX Runtime's CPU provider (the same appended nodes a GPU runs): how far
 * the vectors move (the quality gate for the option), and where it applies.
 */
class DevicePoolingTest {
    static final ModelCard MINILM = ModelCard.builtIn("all-minilm-l6-v2");
    static final RuntimeOptions CPU = RuntimeOptions.defaults().withMaxSequenceLength(128);

    @Test
    void meanPooledInTheGraphMovesVectorsOnlyByRounding() {
        List<String> texts = ReferenceComparison.mixedLengths(200);
        List<float[]> host = embed(MINILM, CPU.withPoolOnDevice(false), texts, false);
        List<float[]> device = embed(MINILM, CPU.withPoolOnDevice(true), texts, true);
        double minCosine = 1;
        float maxAbs = 0;
        int identical = 0;
        for (int i = 0; i < texts.size(); i++) {
            minCosine = Math.min(minCosine, Vectors.cosine(host.get(i), device.get(i)));
            float[] a = host.get(i);
            float[] b = device.get(i);
            boolean same = true;
            for (int h = 0; h < a.length; h++) {
                maxAbs = Math.max(maxAbs, Math.abs(a[h] - b[h]));
                same &= Float.floatToIntBits(a[h]) == Float.floatToIntBits(b[h]);
            }
            identical += same ? 1 : 0;
        }
        System.out.printf("device pooling, %d texts: min cosine %.9f, max |diff| %.3g, %d identical%n",
                texts.size(), minCosine, maxAbs, identical);
        assertThat(texts).hasSizeGreaterThanOrEqualTo(200);
        assertThat(minCosine).isGreaterThan(0.999999);
        assertThat(maxAbs).as("largest change of one coordinate of a unit vector").isLessThan(1e-5f);
    }

    @Test
    void clsPooledInTheGraphIsTheSameBits() {
        ModelCard cls = MINILM.toBuilder().pooling(Pooling.CLS).build();
        List<String> texts = ReferenceComparison.mixedLengths(40);
        List<float[]> host = embed(cls, CPU.withPoolOnDevice(false), texts, false);
        List<float[]> device = embed(cls, CPU.withPoolOnDevice(true), texts, true);
        float maxAbs = 0;
        for (int i = 0; i < texts.size(); i++) {
            for (int h = 0; h < host.get(i).length; h++) {
                maxAbs = Math.max(maxAbs, Math.abs(host.get(i)[h] - device.get(i)[h]));
            }
        }
        System.out.printf("CLS in graph: max |diff| %.3g%n", maxAbs);
        for (int i = 0; i < texts.size(); i++) {
            assertThat(device.get(i)).containsExactly(host.get(i));
        }
    }

    @Test
    void defaultsByDeviceAndForcedEitherWay() {
        assertThat(DevicePooling.wanted(MINILM, CPU)).isFalse();
        assertThat(DevicePooling.wanted(MINILM, CPU.withDevice(Device.parse("cuda")))).isTrue();
        assertThat(DevicePooling.wanted(MINILM, CPU.withDevice(Device.parse("auto")))).isTrue();
        assertThat(DevicePooling.wanted(MINILM, CPU.withPoolOnDevice(true))).isTrue();
        assertThat(DevicePooling.wanted(MINILM, CPU.withDevice(Device.parse("cuda")).withPoolOnDevice(false)))
                .isFalse();
    }

    @Test
    void appendsOnlyToATokenStateOutput() {
        byte[] graph = ModelFiles.readVerified(MINILM, MINILM.onnx);
        assertThat(DevicePooling.tokenStateOutput(graph, MINILM.output)).containsExactly(1, 384);
        assertThat(DevicePooling.tokenStateOutput(graph, "no_such_output")).isNull();
        RuntimeOptions on = CPU.withPoolOnDevice(true);
        assertThat(DevicePooling.applyIfWanted(graph, MINILM, on)).hasSizeGreaterThan(graph.length);
        ModelCard named = MINILM.toBuilder().output("no_such_output").build();
        assertThat(DevicePooling.applyIfWanted(graph, named, on)).isSameAs(graph);
        assertThat(DevicePooling.applyIfWanted(graph, MINILM, CPU)).isSameAs(graph);
        assertThat(DevicePooling.tokenStateOutput(new byte[] {(byte) 0xFF}, MINILM.output))
                .as("bytes that are not a model").isNull();
    }

    /** The texts' vectors in batches of 16 (mixed lengths), checking where the pooling ran. */
    private static List<float[]> embed(ModelCard card, RuntimeOptions options, List<String> texts, boolean onDevice) {
        List<float[]> out = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options);
                OnnxModel model = OnnxModel.load(card, options)) {
            assertThat(model.pooledOnDevice()).isEqualTo(onDevice);
            for (int start = 0; start < texts.size(); start += 16) {
                List<int[]> batch = texts.subList(start, Math.min(texts.size(), start + 16)).stream()
                        .map(t -> tokenizer.encode(t).ids()).toList();
                for (float[] v : model.infer(batch).vectors()) {
                    out.add(v);
                }
            }
        }
        return out;
    }
}
