package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.runtime.Vectors;
import io.github.flinkinfer.runtime.card.InputKind;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code embed --model e5-small-v2 --input-kind query|passage} on 2 TaskManagers: every row is the
 * model's vector for the text with that kind's prefix, computed here one text at a time.
 */
class InputKindITCase extends ClusterTestBase {
    @Test
    void eachRunEmbedsItsInputsWithTheirKindsPrefix() throws Exception {
        Map<String, String> corpus = Corpus.sample(60);
        Path input = writeCorpus(corpus);
        for (InputKind kind : InputKind.values()) {
            Path out = tmp.resolve(kind.name());
            RunSummary summary = MiniClusters.embed(Jobs.options("--input", input.toString(),
                    "--output", out.toString(), "--run-id", "kind", "--parallelism", "2",
                    "--model", "e5-small-v2", "--input-kind", kind.name().toLowerCase(java.util.Locale.ROOT)));
            Map<String, GenericRecord> rows = Outputs.embeddings(out);
            assertThat(summary.succeeded).isEqualTo(60);
            assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());

            ModelCard card = ModelCard.builtIn("e5-small-v2").forInputs(kind);
            ModelCard other = ModelCard.builtIn("e5-small-v2").forInputs(
                    kind == InputKind.QUERY ? InputKind.PASSAGE : InputKind.QUERY);
            try (TextTokenizer tokenizer = TextTokenizer.load(card, RuntimeOptions.defaults());
                    TextTokenizer otherTokenizer = TextTokenizer.load(other, RuntimeOptions.defaults());
                    OnnxModel model = OnnxModel.load(card, RuntimeOptions.defaults())) {
                for (Map.Entry<String, String> doc : corpus.entrySet()) {
                    float[] job = Outputs.vector(rows.get(doc.getKey()));
                    float[] expected = model.infer(List.of(tokenizer.encode(doc.getValue()).ids())).vectors()[0];
                    float[] otherKind = model.infer(List.of(otherTokenizer.encode(doc.getValue()).ids())).vectors()[0];
                    assertThat(Vectors.cosine(job, expected)).as(doc.getKey()).isGreaterThan(0.99999);
                    assertThat(Vectors.cosine(job, otherKind)).as(doc.getKey()).isLessThan(0.9999);
                }
            }
        }
    }
}
