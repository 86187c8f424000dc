package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.DeviceUnavailableException;
import io.github.flinkinfer.runtime.LoadTimes;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Session sharing with the real runtime, on CPU (on by default for single-threaded CPU sessions). */
class SharedSessionTest {
    private static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2-q");

    @Test
    void twoUsersShareOneSessionLoadedOnceAndClosedWithTheLast() throws Exception {
        RuntimeOptions shared = RuntimeOptions.defaults().withShareSession(true);
        SharedResources<OnnxModel.SessionKey, OnnxModel.SharedSession> registry =
                OnnxModel.sharedSessions();
        long loadsBefore = registry.loads();
        int keysBefore = registry.size();
        OnnxModel first = OnnxModel.load(CARD, shared);
        OnnxModel second = OnnxModel.load(CARD, shared.withMaxSequenceLength(64));
        try {
            assertThat(second.ortSession()).isSameAs(first.ortSession());
            assertThat(registry.loads()).isEqualTo(loadsBefore + 1); // the second did not reload
            assertThat(registry.size()).isEqualTo(keysBefore + 1);
            assertThat(first.loadTimes().graphCache()).isNotEqualTo("shared");
            assertThat(second.loadTimes()).as("the first paid the load").isEqualTo(LoadTimes.SHARED);
            // each user keeps its own buffers: both run, with the same result
            List<int[]> batch = List.of(new int[] {101, 7592, 2088, 102});
            assertThat(second.infer(batch).vectors()).isDeepEqualTo(first.infer(batch).vectors());
        } finally {
            first.close();
        }
        assertThat(second.infer(List.of(new int[] {101, 102})).vectors()).hasNumberOfRows(1);
        second.close();
        assertThat(registry.size()).isEqualTo(keysBefore);
        // the session is closed: ORT refuses to run it
        assertThatThrownBy(() -> second.ortSession().run(java.util.Map.of()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void sharedByDefaultButMultiThreadedCpuAndOtherSettingsGetTheirOwnSession() {
        assertThat(RuntimeOptions.defaults().sharesSession()).isTrue();
        assertThat(RuntimeOptions.defaults().withIntraOpThreads(2).sharesSession()).isFalse();
        assertThat(RuntimeOptions.defaults().withIntraOpThreads(0).sharesSession()).isFalse();
        assertThat(RuntimeOptions.defaults().withDevice(Device.parse("auto")).sharesSession()).isTrue();
        assertThat(RuntimeOptions.defaults().withDevice(Device.parse("cuda:1")).withIntraOpThreads(4)
                .sharesSession()).isTrue();
        assertThat(RuntimeOptions.defaults().withDevice(Device.parse("auto")).withShareSession(false)
                .sharesSession()).isFalse();
        assertThat(RuntimeOptions.defaults().withIntraOpThreads(2).withShareSession(true).sharesSession()).isTrue();

        try (OnnxModel a = OnnxModel.load(CARD, RuntimeOptions.defaults());
                OnnxModel b = OnnxModel.load(CARD, RuntimeOptions.defaults())) {
            assertThat(a.ortSession()).isSameAs(b.ortSession());
        }
        RuntimeOptions own = RuntimeOptions.defaults().withShareSession(false);
        try (OnnxModel a = OnnxModel.load(CARD, own);
                OnnxModel b = OnnxModel.load(CARD, own)) {
            assertThat(a.ortSession()).isNotSameAs(b.ortSession());
        }
        RuntimeOptions shared = RuntimeOptions.defaults().withShareSession(true);
        try (OnnxModel a = OnnxModel.load(CARD, shared);
                OnnxModel b = OnnxModel.load(CARD, shared.withIntraOpThreads(2))) {
            assertThat(a.ortSession()).isNotSameAs(b.ortSession());
        }
    }

    @Test
    void autoStillFallsBackToCpuWhenSharedAndWithCudaOptions() {
        RuntimeOptions auto = RuntimeOptions.defaults().withDevice(Device.parse("auto"))
                .withCuda(RuntimeOptions.parseBytes("2g"), "same-as-requested");
        try (OnnxModel a = OnnxModel.load(CARD, auto);
                OnnxModel b = OnnxModel.load(CARD, auto)) {
            assertThat(a.device()).isEqualTo(Device.CPU);
            assertThat(b.ortSession()).isSameAs(a.ortSession());
        }
        assertThatThrownBy(() -> OnnxModel.load(CARD, auto.withDevice(Device.parse("cuda"))))
                .isInstanceOf(DeviceUnavailableException.class)
                .hasMessageContaining("cuda:0");
    }
}
