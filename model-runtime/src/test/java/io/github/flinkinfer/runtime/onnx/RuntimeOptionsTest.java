package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.Device;
import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Each wither changes its own components, keeps every other one and validates like a constructor. */
class RuntimeOptionsTest {

    private static final RuntimeOptions ALL_SET = new RuntimeOptions(Device.parse("cuda:1"), 3, "extended", 64,
            true, 1L << 20, "same-as-requested", new TreeMap<>(Map.of("a", "1")), "/tmp/profile", false,
            "/opt/onnxruntime/lib");

    @Test
    void eachWitherChangesOnlyItsOwnComponents() throws Exception {
        assertChanged(ALL_SET.withDevice(Device.CPU), Set.of("device"));
        assertThat(ALL_SET.withDevice(Device.CPU).device()).isEqualTo(Device.CPU);
        assertChanged(ALL_SET.withIntraOpThreads(5), Set.of("intraOpThreads"));
        assertThat(ALL_SET.withIntraOpThreads(5).intraOpThreads()).isEqualTo(5);
        assertChanged(ALL_SET.withMaxSequenceLength(0), Set.of("maxSequenceLength"));
        assertThat(ALL_SET.withMaxSequenceLength(0).maxSequenceLength()).isZero();
        assertChanged(ALL_SET.withShareSession(null), Set.of("shareSession"));
        assertThat(ALL_SET.withShareSession(null).shareSession()).isNull();
        RuntimeOptions cuda = ALL_SET.withCuda(0, null);
        assertChanged(cuda, Set.of("cudaMemLimitBytes", "cudaArenaExtendStrategy"));
        assertThat(cuda.cudaMemLimitBytes()).isZero();
        assertThat(cuda.cudaArenaExtendStrategy()).isNull();
        assertChanged(ALL_SET.withSessionConfig(Map.of("b", "2")), Set.of("sessionConfig"));
        assertThat(ALL_SET.withSessionConfig(Map.of("b", "2")).sessionConfig()).containsExactly(Map.entry("b", "2"));
        assertChanged(ALL_SET.withProfilePrefix(null), Set.of("profilePrefix"));
        assertThat(ALL_SET.withProfilePrefix(null).profilePrefix()).isNull();
        assertChanged(ALL_SET.withCudaTf32(null), Set.of("cudaTf32"));
        assertThat(ALL_SET.withCudaTf32(null).cudaTf32()).isNull();
        assertChanged(ALL_SET.withOrtNativeDir(null), Set.of("ortNativeDir"));
        assertThat(ALL_SET.withOrtNativeDir(null).ortNativeDir()).isNull();
        assertThat(ALL_SET.withDevice(Device.parse("cuda:1"))).isEqualTo(ALL_SET).isNotSameAs(ALL_SET);
    }

    /** Every component but {@code changed} equals ALL_SET's, and each of {@code changed} differs. */
    private static void assertChanged(RuntimeOptions o, Set<String> changed) throws Exception {
        for (RecordComponent c : RuntimeOptions.class.getRecordComponents()) {
            Object was = c.getAccessor().invoke(ALL_SET);
            Object now = c.getAccessor().invoke(o);
            if (changed.contains(c.getName())) {
                assertThat(now).as(c.getName()).isNotEqualTo(was);
            } else {
                assertThat(now).as(c.getName()).isEqualTo(was);
            }
        }
    }

    @Test
    void shortConstructorLeavesTheRestUnset() {
        RuntimeOptions o = new RuntimeOptions(Device.CPU, 1, "all", 0);
        assertThat(o).isEqualTo(RuntimeOptions.defaults());
        assertThat(o.shareSession()).isNull();
        assertThat(o.cudaMemLimitBytes()).isZero();
        assertThat(o.cudaArenaExtendStrategy()).isNull();
        assertThat(o.sessionConfig()).isEmpty();
        assertThat(o.profilePrefix()).isNull();
        assertThat(o.sharesSession()).isTrue();
    }

    @Test
    void withersValidateAndCopyTheSessionConfig() {
        assertThatThrownBy(() -> ALL_SET.withIntraOpThreads(-1)).hasMessageContaining("intra-op threads");
        assertThatThrownBy(() -> ALL_SET.withMaxSequenceLength(-1)).hasMessageContaining("max sequence length");
        assertThatThrownBy(() -> ALL_SET.withSessionConfig(Map.of(" ", "x"))).hasMessageContaining("blank");
        Map<String, String> entries = new TreeMap<>(Map.of("k", "v"));
        RuntimeOptions o = ALL_SET.withSessionConfig(entries);
        entries.put("later", "x");
        assertThat(o.sessionConfig()).containsExactly(Map.entry("k", "v"));
        assertThatThrownBy(() -> o.sessionConfig().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
