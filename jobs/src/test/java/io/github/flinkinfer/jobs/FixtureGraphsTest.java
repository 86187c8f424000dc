package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.FixtureModel;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark fixture's lean and masked graphs (bench/fixture/fixture_model.py) embed every text alike, bit
 * for bit: the lean graph (one Gather) is the masked one (plus token type, times the mask) without
 * the two passes that change no value pooling reads. The lean graph leaves a table row at padded
 * positions, so its vectors also show that pooling ignores padding: a text's vector is the same
 * alone and in a batch padded to a longer text.
 */
class FixtureGraphsTest {
    @TempDir
    Path dir;

    @Test
    void bothGraphsEmbedEveryTextAlikeBitForBitWhateverItsBatch() throws Exception {
        RuntimeOptions options = new RuntimeOptions(Device.CPU, 1, "all", 128);
        ModelCard lean = ModelCard.load(FixtureModel.build(dir.resolve("lean"), "lean"));
        ModelCard masked = ModelCard.load(FixtureModel.build(dir.resolve("masked"), "masked"));
        assertThat(lean.onnx.sha256()).isNotEqualTo(masked.onnx.sha256());

        List<int[]> inputs = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(lean, options)) {
            for (String text : Corpus.sample(200).values()) {
                inputs.add(tokenizer.encode(text).ids());
            }
        }
        float[][] byLean;
        float[][] alone = new float[inputs.size()][];
        try (OnnxModel model = OnnxModel.load(lean, options)) {
            byLean = embedInBatches(model, inputs, 16);
            for (int i = 0; i < inputs.size(); i++) {
                alone[i] = model.infer(List.of(inputs.get(i))).vectors()[0];
            }
        }
        float[][] byMasked;
        try (OnnxModel model = OnnxModel.load(masked, options)) {
            byMasked = embedInBatches(model, inputs, 16);
        }
        for (int i = 0; i < inputs.size(); i++) {
            assertThat(bits(byLean[i])).as("text %d: lean against masked", i).isEqualTo(bits(byMasked[i]));
            assertThat(bits(byLean[i])).as("text %d: in its batch against alone", i).isEqualTo(bits(alone[i]));
        }
        assertThat(inputs.stream().mapToInt(ids -> ids.length).distinct().count())
                .as("texts of many lengths, so batches are padded").isGreaterThan(10);
    }

    /**
     * The pooled graph, the stand-in for a GPU that pools on the device: one unit vector of 384 per
     * text, the same alone as in a batch, and nothing appended to it (the card's output is pooled).
     */
    @Test
    void thePooledGraphReturnsOneUnitVectorPerTextWhateverItsBatch() throws Exception {
        RuntimeOptions options = new RuntimeOptions(Device.CPU, 1, "all", 128).withPoolOnDevice(true);
        ModelCard pooled = ModelCard.load(FixtureModel.build(dir.resolve("pooled"), "pooled"));
        List<int[]> inputs = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(pooled, options)) {
            for (String text : Corpus.sample(64).values()) {
                inputs.add(tokenizer.encode(text).ids());
            }
        }
        try (OnnxModel model = OnnxModel.load(pooled, options)) {
            assertThat(model.pooledOnDevice()).as("the graph's own output is pooled").isFalse();
            float[][] batched = embedInBatches(model, inputs, 16);
            for (int i = 0; i < inputs.size(); i++) {
                assertThat(batched[i]).hasSize(384);
                double norm = 0;
                for (float x : batched[i]) {
                    norm += (double) x * x;
                }
                assertThat(Math.sqrt(norm)).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-5));
                assertThat(bits(batched[i])).isEqualTo(bits(model.infer(List.of(inputs.get(i))).vectors()[0]));
            }
        }
    }

    private static float[][] embedInBatches(OnnxModel model, List<int[]> inputs, int size) {
        float[][] out = new float[inputs.size()][];
        for (int from = 0; from < inputs.size(); from += size) {
            List<int[]> batch = inputs.subList(from, Math.min(inputs.size(), from + size));
            float[][] vectors = model.infer(batch).vectors();
            System.arraycopy(vectors, 0, out, from, vectors.length);
        }
        return out;
    }

    private static int[] bits(float[] v) {
        int[] bits = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            bits[i] = Float.floatToRawIntBits(v[i]);
        }
        return bits;
    }
}
