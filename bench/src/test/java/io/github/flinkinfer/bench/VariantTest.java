package io.github.flinkinfer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariantTest {
    @Test
    void plainNameHasNoLevers() {
        Variant v = Variant.parse("bare-1x2");
        assertThat(v.base()).isEqualTo("bare-1x2");
        assertThat(v.params()).isEmpty();
        assertThat(v.budget(8192)).isEqualTo(8192);
        assertThat(v.edges()).isNull();
        assertThat(v.optimizationLevel()).isEqualTo("all");
        assertThat(v.sessionConfig()).isEmpty();
    }

    @Test
    void leversMapToBatchingAndSessionSettings() {
        Variant v = Variant.parse("flink@budget=2048+edges=16/24/32+spin=0+opt=extended+ort.session.x=1+jfr=1");
        assertThat(v.base()).isEqualTo("flink");
        assertThat(v.budget(8192)).isEqualTo(2048);
        assertThat(v.edges()).containsExactly(16, 24, 32);
        assertThat(v.optimizationLevel()).isEqualTo("extended");
        assertThat(v.sessionConfig()).containsExactly(
                Map.entry("session.intra_op.allow_spinning", "0"), Map.entry("session.x", "1"));
        assertThat(v.flag("jfr")).isTrue();
        assertThat(v.flag("profile")).isFalse();
    }

    @Test
    void stageAndDeviceLeversAreKnown() {
        Variant v = Variant.parse("sim-device@rate=50000+launch=200+devices=2+tp=2+par=1+docs=6000+preset=h200-fp16");
        assertThat(v.base()).isEqualTo("sim-device");
        assertThat(v.params()).containsEntry("rate", "50000").containsEntry("launch", "200")
                .containsEntry("devices", "2").containsEntry("tp", "2").containsEntry("par", "1")
                .containsEntry("docs", "6000").containsEntry("preset", "h200-fp16");
    }

    @Test
    void unknownOrMalformedLeversAreRefused() {
        assertThatThrownBy(() -> Variant.parse("bare-1x2@turbo=1"))
                .hasMessageContaining("unknown lever 'turbo'");
        assertThatThrownBy(() -> Variant.parse("bare-1x2@budget"))
                .hasMessageContaining("must be key=value");
    }

    @Test
    void eachLeverIsRatioedAgainstItsOwnBaseline() {
        Map<String, Map<String, Object>> med = new LinkedHashMap<>();
        med.put("bare-1x2", Map.of("itemsPerSecond", 100.0));
        med.put("bare-1x2@budget=2048", Map.of("itemsPerSecond", 110.0));
        med.put("flink@overlap=on", Map.of("itemsPerSecond", 90.0)); // no baseline in this run
        Map<String, Object> r = Bench.ratios(med);
        assertThat((double) r.get("bare-1x2@budget=2048/bare-1x2")).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(r).doesNotContainKey("flink@overlap=on/flink");
    }
}
