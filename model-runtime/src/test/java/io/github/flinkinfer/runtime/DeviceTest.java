package io.github.flinkinfer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import org.junit.jupiter.api.Test;

class DeviceTest {
    @Test
    void parsesDeviceSpecs() {
        assertThat(Device.parse("cpu")).isEqualTo(Device.CPU);
        assertThat(Device.parse("CUDA:1")).isEqualTo(new Device(Device.Kind.CUDA, 1));
        assertThat(Device.parse("auto").kind()).isEqualTo(Device.Kind.AUTO);
        assertThatThrownBy(() -> Device.parse("tpu")).hasMessageContaining("cpu, auto, cuda");
    }

    @Test
    void printsTheGpuIndexForCudaAndAuto() {
        assertThat(Device.CPU).hasToString("cpu");
        assertThat(Device.parse("cuda")).hasToString("cuda:0");
        assertThat(Device.parse("auto").withIndex(1)).hasToString("auto:1");
    }

    @Test
    void autoFallsBackToCpuAndCudaFailsClearlyWithoutCuda() {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        try (OnnxModel m = OnnxModel.load(card, RuntimeOptions.defaults().withDevice(Device.parse("auto")))) {
            assertThat(m.device()).isEqualTo(Device.CPU);
        }
        assertThatThrownBy(
                        () -> OnnxModel.load(card, RuntimeOptions.defaults().withDevice(Device.parse("cuda"))))
                .isInstanceOf(DeviceUnavailableException.class)
                .hasMessageContaining("cuda:0")
                .hasMessageContaining("CUDA");
    }
}
