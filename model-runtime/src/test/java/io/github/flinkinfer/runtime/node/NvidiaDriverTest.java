package io.github.flinkinfer.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The driver's version and CUDA version as a node shows them, with and without nvidia-smi. */
class NvidiaDriverTest {
    @Test
    void readsTheKernelModulesVersionProprietaryOrOpen() {
        assertThat(NvidiaDriver.moduleVersion("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04"
                + "  Tue Nov 25 10:00:00 UTC 2025\nGCC version:  gcc version 13.3.0\n")).isEqualTo("580.159.04");
        assertThat(NvidiaDriver.moduleVersion("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.86.15"
                + "  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Jan 23 2025\n")).isEqualTo("570.86.15");
        assertThat(NvidiaDriver.moduleVersion("")).isNull();
    }

    @Test
    void theCudaVersionComesFromNvidiaSmiElseFromTheDriversVersion() {
        assertThat(NvidiaDriver.of("580.159.04", "CUDA Version: 13.0", "").orElseThrow().cudaVersion()).isEqualTo("13.0");
        NvidiaDriver noSmi = NvidiaDriver.of("580.159.04", "", "").orElseThrow();
        assertThat(noSmi.cudaVersion()).isEqualTo("13.x");
        assertThat(noSmi.gpusListed()).isFalse();
        assertThat(noSmi.runsCuda(12)).isTrue();
        assertThat(NvidiaDriver.of("525.60.13", "", "").orElseThrow().runsCuda(12)).isTrue();
        assertThat(NvidiaDriver.of("525.53", "", "").orElseThrow().runsCuda(12)).isFalse();
        assertThat(NvidiaDriver.of(null, "", "")).isEmpty();
    }

    @Test
    void gpusAndTheirMemoryFromTheQuery() {
        NvidiaDriver d = NvidiaDriver.of(null, "",
                "0, NVIDIA H200, 143771, 580.159.04\n1, NVIDIA H200, 143771, 580.159.04\n").orElseThrow();
        assertThat(d.version()).isEqualTo("580.159.04");
        assertThat(d.gpus()).extracting(NvidiaDriver.Gpu::toString)
                .containsExactly("cuda:0 NVIDIA H200, 143771 MiB", "cuda:1 NVIDIA H200, 143771 MiB");
    }
}
