package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.Device;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CudaOptionsTest {
    @Test
    void parsesByteCounts() {
        assertThat(RuntimeOptions.parseBytes("0")).isZero();
        assertThat(RuntimeOptions.parseBytes("1073741824")).isEqualTo(1L << 30);
        assertThat(RuntimeOptions.parseBytes("512m")).isEqualTo(512L << 20);
        assertThat(RuntimeOptions.parseBytes("4G")).isEqualTo(4L << 30);
        assertThat(RuntimeOptions.parseBytes("8GiB")).isEqualTo(8L << 30);
        assertThat(RuntimeOptions.parseBytes("64kb")).isEqualTo(64L << 10);
        for (String bad : new String[] {"", "-1", "4t", "lots", "99999999999g"}) {
            assertThatThrownBy(() -> RuntimeOptions.parseBytes(bad))
                    .as(bad).hasMessageContaining("byte count");
        }
    }

    @Test
    void mapsToOrtProviderKeysAndLeavesDefaultsOut() {
        assertThat(OrtSessions.cudaOptions(RuntimeOptions.defaults())).isEmpty();
        RuntimeOptions o = RuntimeOptions.defaults().withCuda(4L << 30, "same-as-requested");
        assertThat(OrtSessions.cudaOptions(o))
                .isEqualTo(Map.of("gpu_mem_limit", "4294967296",
                        "arena_extend_strategy", "kSameAsRequested"));
        assertThat(OrtSessions.cudaOptions(o.withCuda(0, "next-power-of-two")))
                .isEqualTo(Map.of("arena_extend_strategy", "kNextPowerOfTwo"));
        assertThat(OrtSessions.cudaOptions(RuntimeOptions.defaults().withCudaTf32(false)))
                .isEqualTo(Map.of("use_tf32", "0"));
        assertThat(OrtSessions.cudaOptions(RuntimeOptions.defaults().withCudaTf32(true)))
                .isEqualTo(Map.of("use_tf32", "1"));
    }

    @Test
    void validates() {
        assertThatThrownBy(() -> RuntimeOptions.defaults().withCuda(-1, null))
                .hasMessageContaining("memory limit");
        assertThatThrownBy(() -> RuntimeOptions.defaults().withCuda(0, "kSameAsRequested"))
                .hasMessageContaining("next-power-of-two or same-as-requested");
        // options survive the per-subtask device choice
        RuntimeOptions o = RuntimeOptions.defaults().withCuda(1L << 30, "same-as-requested")
                .withShareSession(false);
        assertThat(o.withDevice(Device.parse("cuda:1")).cudaMemLimitBytes()).isEqualTo(1L << 30);
        assertThat(o.withIntraOpThreads(2).shareSession()).isFalse();
    }
}
