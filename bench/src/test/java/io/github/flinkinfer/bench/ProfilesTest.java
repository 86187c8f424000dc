package io.github.flinkinfer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilesTest {
    @TempDir Path tmp;

    /** A trace in ONNX Runtime's profile format: Node kernel times by op, and model_run spans. */
    @Test
    void ortProfileIsSummedByOperatorType() throws Exception {
        Path trace = tmp.resolve("ort-profile-1_2026.json");
        Files.writeString(trace, """
                [
                 {"cat":"Session","name":"model_run","dur":1000,"args":{}},
                 {"cat":"Node","name":"/l0/MatMul_kernel_time","dur":600,"args":{"op_name":"MatMul"}},
                 {"cat":"Node","name":"/l0/MatMul_fence_before","dur":5,"args":{"op_name":"MatMul"}},
                 {"cat":"Node","name":"/l0/Softmax_kernel_time","dur":200,"args":{"op_name":"Softmax"}},
                 {"cat":"Session","name":"model_run","dur":1000,"args":{}},
                 {"cat":"Node","name":"/l1/MatMul_kernel_time","dur":600,"args":{"op_name":"MatMul"}},
                 {"cat":"Node","name":"/l1/Add_kernel_time","dur":400,"args":{"op_name":"Add"}}
                ]""");
        assertThat(Profiles.ortFiles(tmp.resolve("ort-profile-1").toString())).containsExactly(trace);

        Map<String, Object> s = Profiles.ortOperators(List.of(trace));
        @SuppressWarnings("unchecked")
        Map<String, Double> shares = (Map<String, Double>) s.get("ortOpShares");
        assertThat(shares.keySet()).containsExactly("MatMul", "Add", "Softmax"); // largest first
        assertThat(shares.get("MatMul")).isCloseTo(1200.0 / 1800, offset(1e-9));
        assertThat((double) s.get("ortKernelShareOfRun")).isCloseTo(0.9, offset(1e-9));
        assertThat((double) s.get("ortMatMulSeconds")).isCloseTo(1200e-6, offset(1e-12));
        assertThat(s.get("ortRuns")).isEqualTo(2L);
    }

    /** A real JFR recording with the benchmark's settings, while this thread only tokenizes. */
    @Test
    void jfrSamplesAreAttributedToPipelinePhases() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        Path jfr = tmp.resolve("t.jfr");
        try (TextTokenizer tok = TextTokenizer.load(card, RuntimeOptions.defaults())) {
            Configuration settings;
            try (var in = Profiles.class.getResourceAsStream("/bench.jfc")) {
                settings = Configuration.create(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
            }
            long from;
            long to;
            try (Recording r = new Recording(settings)) {
                r.start();
                from = System.currentTimeMillis();
                long until = System.nanoTime() + 1_500_000_000L;
                String text = "The quick brown fox jumps over the lazy dog while the dictionary grows. ".repeat(8);
                while (System.nanoTime() < until) {
                    tok.encode(text);
                }
                to = System.currentTimeMillis();
                r.stop();
                r.dump(jfr);
            }
            Map<String, Object> p = Profiles.jfrPhases(jfr, from, to);
            @SuppressWarnings("unchecked")
            Map<String, Double> shares = (Map<String, Double>) p.get("jfrPhaseShares");
            assertThat((long) p.get("jfrSamples")).isGreaterThan(20);
            assertThat(shares.keySet().iterator().next()).isEqualTo("tokenize"); // the largest phase
            assertThat(shares.get("tokenize")).isGreaterThan(0.5);
        }
    }
}
