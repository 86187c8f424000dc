package io.github.flinkinfer.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import org.junit.jupiter.api.Test;

/** --share-session and the CUDA provider options, parsed and validated on CPU. */
class GpuOptionsTest {
    private static final String[] BASE = {"--input", "in.jsonl", "--output", "out"};

    private static RunOptions options(String... extra) {
        return Jobs.options(BASE, extra);
    }

    @Test
    void sessionSharingDefaultsToOnExceptMultiThreadedCpu() {
        assertThat(options("--device", "cpu").runtimeOptions().sharesSession()).isTrue();
        assertThat(options("--device", "cpu", "--intra-op-threads", "2").runtimeOptions().sharesSession()).isFalse();
        assertThat(options("--device", "auto").runtimeOptions().sharesSession()).isTrue();
        assertThat(options("--device", "cuda:1").runtimeOptions().sharesSession()).isTrue();
        assertThat(options("--share-session").runtimeOptions().sharesSession()).isTrue();
        assertThat(options("--device", "cuda", "--share-session=false").runtimeOptions()
                .sharesSession()).isFalse();
    }

    @Test
    void cudaProviderOptions() {
        RuntimeOptions defaults = options().runtimeOptions();
        assertThat(defaults.cudaMemLimitBytes()).isZero();
        assertThat(defaults.cudaArenaExtendStrategy()).isNull();
        RunOptions o = options("--device", "cuda", "--cuda-mem-limit", "6g",
                "--cuda-arena-extend-strategy", "same-as-requested");
        o.validate();
        assertThat(o.runtimeOptions().cudaMemLimitBytes()).isEqualTo(6L << 30);
        assertThat(o.runtimeOptions().cudaArenaExtendStrategy()).isEqualTo("same-as-requested");
        assertThat(defaults.cudaTf32()).as("ONNX Runtime's default").isNull();
        assertThat(options("--cuda-tf32=false").runtimeOptions().cudaTf32()).isFalse();
        assertThat(options("--cuda-tf32").runtimeOptions().cudaTf32()).isTrue();
        assertThat(defaults.poolOnDevice()).as("by device").isNull();
        assertThat(options("--pool-on-device").runtimeOptions().poolOnDevice()).isTrue();
        assertThat(options("--pool-on-device=false").runtimeOptions().poolOnDevice()).isFalse();
        assertThat(options("--ort-native-dir", "/opt/ort/lib").runtimeOptions().ortNativeDir()).isEqualTo("/opt/ort/lib");
    }

    @Test
    void rejectsBadCudaOptionsBeforeTheJobStarts() {
        assertThatThrownBy(() -> options("--cuda-mem-limit", "lots").validate())
                .hasMessageContaining("byte count 'lots'");
        assertThatThrownBy(() -> options("--cuda-arena-extend-strategy", "grow").validate())
                .hasMessageContaining("next-power-of-two or same-as-requested");
    }
}
