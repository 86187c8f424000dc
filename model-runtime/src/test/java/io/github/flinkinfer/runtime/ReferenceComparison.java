package io.github.flinkinfer.runtime;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Embeds texts with one of our cards in mixed-length batches and with a reference model one by
 * one, and measures how far apart they are: the shared core of the per-model reference tests.
 */
public final class ReferenceComparison {
    private ReferenceComparison() {}

    /** Cosine between ours and the reference, per text: min and mean. */
    public record Drift(double min, double mean, int texts, int longestTokens) {
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "min %.6f, mean %.6f over %d texts (longest %d tokens)",
                    min, mean, texts, longestTokens);
        }
    }

    /** The sample's texts ordered short, long, short, long... so every batch mixes lengths. */
    public static List<String> mixedLengths(int n) {
        List<String> sorted = new ArrayList<>(SampleTexts.texts(n));
        sorted.sort(Comparator.comparingInt(String::length));
        List<String> mixed = new ArrayList<>();
        for (int i = 0, j = sorted.size() - 1; i <= j; i++, j--) {
            mixed.add(sorted.get(i));
            if (i != j) {
                mixed.add(sorted.get(j));
            }
        }
        return mixed;
    }

    /** Our vectors for {@code texts} (the card's input kind decides the prefix), in batches. */
    public static List<float[]> ours(ModelCard card, int maxLength, List<String> texts, int batchSize) {
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(maxLength);
        List<float[]> out = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options);
                OnnxModel model = OnnxModel.load(card, options)) {
            for (int start = 0; start < texts.size(); start += batchSize) {
                List<int[]> batch = texts.subList(start, Math.min(texts.size(), start + batchSize))
                        .stream().map(t -> tokenizer.encode(t).ids()).toList();
                for (float[] v : model.infer(batch).vectors()) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /** The reference's vectors, each text given with {@code prefix} (langchain4j adds none). */
    public static List<float[]> reference(EmbeddingModel reference, String prefix, List<String> texts) {
        return reference.embedAll(texts.stream().map(t -> TextSegment.from(prefix + t)).toList())
                .content().stream().map(e -> e.vector()).toList();
    }

    public static Drift drift(List<float[]> a, List<float[]> b, int longestTokens) {
        double min = 1;
        double sum = 0;
        for (int i = 0; i < a.size(); i++) {
            double c = Vectors.cosine(a.get(i), b.get(i));
            min = Math.min(min, c);
            sum += c;
        }
        return new Drift(min, sum / a.size(), a.size(), longestTokens);
    }

    /** The longest input in tokens, prefix included, before truncation. */
    public static int longestTokens(ModelCard card, List<String> texts) {
        try (TextTokenizer tokenizer = TextTokenizer.load(card, RuntimeOptions.defaults())) {
            return texts.stream().mapToInt(t -> tokenizer.encode(t).originalTokenCount()).max().orElse(0);
        }
    }
}
