package io.github.flinkinfer.bench.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The simulated device's cost model, its one stream (callers of one device never overlap, so its
 * busy time never exceeds the wall), and the runtimes it hands out: real-shaped values from the
 * model behind it, a reported CUDA device per placement, and the hold as the inference phase.
 */
class SimulatedDeviceTest {
    private static final long MS = 1_000_000;

    @Test
    void aCallCostsItsLaunchPlusItsPaddedTokensAtTheRate() {
        DeviceCost cost = new DeviceCost(300, 400_000);
        assertThat(cost.nanos(32, 64)).isEqualTo(300_000 + 5_120_000);
        assertThat(cost.nanos(1, 0)).isEqualTo(300_000);
        assertThatThrownBy(() -> new DeviceCost(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theH200PresetsAreTheMeasuredCosts() {
        // 2 ms per call, then 0.076 µs (fp16) or 0.198 µs (TF32) per padded token (issue 39)
        assertThat(DeviceCost.preset("h200-fp16").nanos(1, 8)).isEqualTo(2_000_000 + 608);
        assertThat(DeviceCost.preset("h200-fp16").nanos(2048, 128)).isEqualTo(2_000_000 + 19_922_944);
        assertThat(DeviceCost.preset("h200-tf32").nanos(2048, 128)).isEqualTo(2_000_000 + 51_904_512);
        assertThatThrownBy(() -> DeviceCost.preset("t4")).hasMessageContaining("[h200-fp16, h200-tf32]");
    }

    @Test
    void callersOfOneDeviceQueueForItsOneStream() throws Exception {
        String fleet = UUID.randomUUID().toString();
        SimulatedDevice gpu = SimulatedDevice.of(fleet, 0);
        assertThat(SimulatedDevice.of(fleet, 0)).isSameAs(gpu);
        long start = System.nanoTime();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread c = new Thread(() -> {
                for (int i = 0; i < 4; i++) {
                    assertThat(gpu.run(10 * MS)).isGreaterThanOrEqualTo(10 * MS);
                }
            });
            c.start();
            callers.add(c);
        }
        for (Thread c : callers) {
            c.join();
        }
        long wall = System.nanoTime() - start;
        assertThat(gpu.calls()).isEqualTo(12);
        assertThat(gpu.busyNanos()).isGreaterThanOrEqualTo(120 * MS).isLessThanOrEqualTo(wall);
        assertThat(wall).isGreaterThanOrEqualTo(120 * MS); // serialized: never two holds at once
        assertThat(gpu.queuedNanos()).isPositive(); // three callers, one stream
        assertThat(SimulatedDevice.fleetBusyNanos(fleet)).isEqualTo(gpu.busyNanos());
        assertThat(SimulatedDevice.fleetCallCount(fleet)).isEqualTo(12);
    }

    @Test
    void runtimesArePlacedRoundRobinAndReturnTheModelsValuesAfterTheirDeviceTime() {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2");
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(128);
        String fleet = UUID.randomUUID().toString();
        DeviceCost cost = new DeviceCost(1000, 100_000);
        SimulatedDeviceFactory sim = new SimulatedDeviceFactory(ModelRuntimeFactory.onnx(card, options), fleet, 2, cost);
        List<int[]> batch;
        try (TextTokenizer tok = TextTokenizer.load(card, options)) {
            batch = List.of(tok.encode("a simulated accelerator").ids(), tok.encode("two texts, one stream").ids());
        }
        int longest = Math.max(batch.get(0).length, batch.get(1).length);
        try (ModelRuntime a = sim.open(Device.CPU); ModelRuntime b = sim.open(Device.CPU);
                ModelRuntime c = sim.open(Device.CPU);
                ModelRuntime real = ModelRuntimeFactory.onnx(card, options).open(Device.CPU)) {
            assertThat(List.of(a.device(), b.device(), c.device())).containsExactly(
                    new Device(Device.Kind.CUDA, 0), new Device(Device.Kind.CUDA, 1), new Device(Device.Kind.CUDA, 0));
            Inference sims = a.infer(batch);
            assertThat(sims.vectors()).isDeepEqualTo(real.infer(batch).vectors()); // real shape and values
            assertThat(sims.runNanos()).isGreaterThanOrEqualTo(cost.nanos(2, longest));
            assertThat(SimulatedDevice.of(fleet, 0).calls()).isEqualTo(1);
            assertThat(SimulatedDevice.of(fleet, 1).calls()).isZero();
        }
    }
}
