package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import io.github.flinkinfer.runtime.ReferenceComparison;
import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Our fp32 embeddings, computed in batches of mixed lengths, against langchain4j's independent
 * implementation of the same model at the same max length (128, langchain4j's own limit).
 */
class ReferenceEmbeddingTest {
    static final int MAX_LEN = 128;
    static TextTokenizer tokenizer;
    static OnnxModel model;

    @BeforeAll
    static void load() {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(MAX_LEN);
        tokenizer = TextTokenizer.load(card, options);
        model = OnnxModel.load(card, options);
    }

    @AfterAll
    static void close() {
        model.close();
        tokenizer.close();
    }

    @Test
    void mixedLengthBatchesMatchLangchain4jReference() {
        // Mixed lengths in each batch: interleave short and long texts.
        List<String> mixed = ReferenceComparison.mixedLengths(160);
        List<float[]> ours = new ArrayList<>();
        for (int start = 0; start < mixed.size(); start += 16) {
            List<int[]> batch =
                    mixed.subList(start, Math.min(mixed.size(), start + 16)).stream()
                            .map(t -> tokenizer.encode(t).ids())
                            .collect(Collectors.toList());
            for (float[] v : model.infer(batch).vectors()) {
                ours.add(v);
            }
        }
        AllMiniLmL6V2EmbeddingModel reference = new AllMiniLmL6V2EmbeddingModel();
        List<Embedding> ref =
                reference.embedAll(mixed.stream().map(TextSegment::from).toList()).content();

        double min = 1;
        for (int i = 0; i < mixed.size(); i++) {
            min = Math.min(min, cosine(ours.get(i), ref.get(i).vector()));
        }
        assertThat(mixed).hasSizeGreaterThanOrEqualTo(100);
        assertThat(min).isGreaterThanOrEqualTo(0.9999);
        assertThat(mixed.stream().mapToInt(t -> tokenizer.encode(t).ids().length).max().getAsInt())
                .as("the texts cover long inputs too")
                .isGreaterThan(64);
    }

    @Test
    void batchingDoesNotChangeFp32Outputs() {
        List<String> texts = SampleTexts.texts(24);
        List<int[]> batch = texts.stream().map(t -> tokenizer.encode(t).ids()).toList();
        float[][] together = model.infer(batch).vectors();
        for (int i = 0; i < texts.size(); i++) {
            float[] alone = model.infer(List.of(batch.get(i))).vectors()[0];
            assertThat(cosine(alone, together[i])).isGreaterThan(0.99999);
        }
    }

    static double cosine(float[] a, float[] b) {
        return io.github.flinkinfer.runtime.Vectors.cosine(a, b);
    }
}
