package io.github.flinkinfer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A contender that ran at another max length is marked in the report and gets no ratio. */
class ComparableRatiosTest {

    static Map<String, Object> contender(double itemsPerSecond, int maxLength) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("itemsPerSecond", itemsPerSecond);
        m.put("realTokensPerSecond", itemsPerSecond * 30);
        m.put("paddingEfficiency", 1.0);
        m.put("usefulGflops", 1.0);
        m.put("executedGflops", 1.0);
        m.put("maxLength", maxLength);
        return m;
    }

    static Map<String, Map<String, Object>> medians(int langchain4jMaxLength) {
        Map<String, Map<String, Object>> med = new LinkedHashMap<>();
        med.put("langchain4j", contender(100, langchain4jMaxLength));
        med.put("batch1", contender(110, 256));
        med.put("flink", contender(91, 256));
        return med;
    }

    @Test
    void ratiosLeaveOutAContenderAtAnotherMaxLength() {
        Map<String, Object> ratios = Bench.ratios(medians(128));
        assertThat(ratios).containsOnlyKeys("flink/batch1");
        assertThat((double) ratios.get("flink/batch1")).isEqualTo(91.0 / 110);

        assertThat(Bench.ratios(medians(256))).containsOnlyKeys("flink/batch1", "flink/langchain4j");
    }

    @Test
    void reportMarksItAndSaysWhyTheTargetHasNoRatio() {
        Map<String, Map<String, Object>> med = medians(128);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("date", "d");
        result.put("command", "c");
        result.put("machine", Map.of("cpu", "x", "cores", 2, "mhz", 1, "avx512", false,
                "fp32PeakGflops", 100.0, "peakFormula", "f"));
        result.put("versions", Map.of());
        result.put("settings", Map.of("maxLength", 256, "effectiveMaxLength", 256));
        result.put("medians", med);
        result.put("ratios", Bench.ratios(med));

        String md = BenchReport.markdown(result);

        assertThat(md).contains("| langchain4j † (max length 128) | 100.0 |")
                .contains("| flink | 91.0 |")
                .contains("† langchain4j ran at another max length than the run's 256")
                .contains("| flink/langchain4j ≥ 1.40× | no ratio: langchain4j ran at max length 128, the others at 256 | n/a |")
                .doesNotContain("| flink/langchain4j | ");
    }
}
