package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunInfoTest {
    @Test
    void secretsAreRedactedButSizesAndPricesNamedTokensAreNot() {
        RunOptions o = Jobs.options("--input", "in.jsonl", "--output", "out",
                "--max-batch-tokens", "4096", "--reference-price-per-1m-tokens", "0.02",
                "--kafka-property", "sasl.jaas.config=canary-secret-value");
        Map<String, Object> s = o.settings();
        assertThat(s.get("--max-batch-tokens")).isEqualTo(4096);
        assertThat(s.get("--reference-price-per-1m-tokens").toString()).isEqualTo("0.02");
        assertThat(s.get("--kafka-property")).isEqualTo("<redacted>");
        assertThat(s.toString()).doesNotContain("canary-secret-value");
    }

    @Test
    void onlyTheSettingsThatDifferFromTheDefaultsAreListedWithTheirDefault() {
        RunOptions o = Jobs.options("--input", "in.jsonl", "--output", "out",
                "--max-batch-tokens", "4096", "--overlong", "reject", "--bucket-edges", "16,32,64,128,256,512");
        assertThat(o.changedDefaults()).containsOnlyKeys("--input", "--output", "--max-batch-tokens", "--overlong")
                .containsEntry("--max-batch-tokens", 2048).containsEntry("--overlong", OverlongPolicy.TRUNCATE)
                .containsEntry("--output", null);
    }

    @Test
    void theVersionIsNeverNull() {
        assertThat(RunInfo.version()).isNotBlank().doesNotContain("${").isNotEqualTo("unknown");
    }
}
