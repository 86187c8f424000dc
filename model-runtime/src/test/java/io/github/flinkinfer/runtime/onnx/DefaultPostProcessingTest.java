package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.Pooling;
import io.github.flinkinfer.runtime.postprocess.ModelOutput;
import io.github.flinkinfer.runtime.postprocess.PostProcessing;
import io.github.flinkinfer.runtime.postprocess.PostProcessor;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The card's default steps give, bit for bit, what the pooling inside OnnxModel gave before the
 * steps existed: recomputed here the old way from the real model's raw token vectors.
 */
class DefaultPostProcessingTest {

    /** A step that keeps a copy of the raw token vectors, then hands them on. */
    static final class RawCapture implements PostProcessor {
        ModelOutput.TokenVectors raw;

        @Override
        public ModelOutput apply(ModelOutput output) {
            ModelOutput.TokenVectors t = (ModelOutput.TokenVectors) output;
            float[] copy = new float[t.rows() * t.tokens() * t.hidden()];
            t.states().get(0, copy);
            raw = new ModelOutput.TokenVectors(java.nio.FloatBuffer.wrap(copy), t.rows(), t.tokens(),
                    t.hidden(), t.lengths().clone());
            return output;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "bge-small-en-v1.5"})
    void defaultStepsEqualThePreviousPooling(String name) {
        ModelCard card = ModelCard.builtIn(name);
        RuntimeOptions options = RuntimeOptions.defaults();
        RawCapture capture = new RawCapture();
        List<PostProcessor> steps = new ArrayList<>(List.of(capture));
        steps.addAll(card.postProcessing().steps());
        List<String> texts = SampleTexts.texts(6);
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options);
                OnnxModel byDefault = OnnxModel.load(card, options);
                OnnxModel capturing = OnnxModel.load(card, options, PostProcessing.of(steps))) {
            List<int[]> batch = texts.stream().map(t -> tokenizer.encode(t).ids()).toList();
            float[][] expected = byDefault.infer(batch).vectors();
            float[][] actual = capturing.infer(batch).vectors();

            assertThat(byDefault.postProcessing()).hasToString(card.postProcessing().toString());
            assertThat(batch.stream().mapToInt(ids -> ids.length).distinct().count())
                    .as("mixed lengths, so padding is in play").isGreaterThan(1);
            float[][] previous = previousPooling(capture.raw, card);
            for (int r = 0; r < batch.size(); r++) {
                assertThat(actual[r]).containsExactly(previous[r]);
                assertThat(expected[r]).containsExactly(previous[r]);
                if (card.normalize) {
                    float[] unit = actual[r];
                    assertThat(Math.sqrt(IntStream.range(0, unit.length)
                                    .mapToDouble(i -> (double) unit[i] * unit[i]).sum()))
                            .as("unit length").isCloseTo(1.0, within(1e-5));
                }
            }
        }
    }

    /** OnnxModel's pool() and normalize() as they were before the steps. */
    static float[][] previousPooling(ModelOutput.TokenVectors raw, ModelCard card) {
        int cols = raw.tokens();
        int hidden = raw.hidden();
        float[][] out = new float[raw.rows()][hidden];
        for (int r = 0; r < raw.rows(); r++) {
            float[] v = out[r];
            int len = raw.lengths()[r];
            int rowBase = r * cols * hidden;
            if (card.pooling == Pooling.CLS) {
                raw.states().get(rowBase, v, 0, hidden);
            } else {
                for (int t = 0; t < len; t++) {
                    int off = rowBase + t * hidden;
                    for (int h = 0; h < hidden; h++) {
                        v[h] += raw.states().get(off + h);
                    }
                }
                float inv = 1f / Math.max(1, len);
                for (int h = 0; h < hidden; h++) {
                    v[h] *= inv;
                }
            }
            if (card.normalize) {
                out[r] = unitLength(v);
            }
        }
        return out;
    }

    /**
     * The old normalize() restated as its arithmetic, not its code: the squares summed in double
     * in index order, and every component times the float reciprocal of the norm (floored at
     * 1e-12), so the bits are comparable exactly.
     */
    static float[] unitLength(float[] v) {
        double norm = Math.sqrt(IntStream.range(0, v.length).mapToDouble(i -> (double) v[i] * v[i])
                .reduce(0, Double::sum));
        float reciprocal = (float) (1.0 / Math.max(norm, 1e-12));
        float[] unit = new float[v.length];
        IntStream.range(0, v.length).forEach(i -> unit[i] = v[i] * reciprocal);
        return unit;
    }
}
