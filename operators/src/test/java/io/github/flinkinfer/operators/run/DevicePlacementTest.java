package io.github.flinkinfer.operators.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.Device;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.common.externalresource.ExternalResourceInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DevicePlacementTest {
    record Gpu(String index) implements ExternalResourceInfo {
        @Override
        public Optional<String> getProperty(String key) {
            return Optional.ofNullable(Map.of("index", index).get(key));
        }

        @Override
        public Collection<String> getKeys() {
            return Set.of("index");
        }
    }

    private final List<DevicePlacement.Lease> open = new ArrayList<>();

    private Device take(Device requested, Collection<ExternalResourceInfo> gpus) {
        DevicePlacement.Lease lease = DevicePlacement.take(requested, gpus);
        open.add(lease);
        return lease.device();
    }

    @AfterEach
    void closeLeases() {
        open.forEach(DevicePlacement.Lease::close);
    }

    @Test
    void subtasksOfATaskManagerSpreadEvenlyOverItsGpus() {
        // Flink reports a TaskManager's GPUs in any order; four subtasks open there, two per GPU
        List<ExternalResourceInfo> gpus = List.of(new Gpu("1"), new Gpu("0"));
        Device cuda = Device.parse("cuda");
        assertThat(List.of(take(cuda, gpus), take(cuda, gpus), take(cuda, gpus), take(cuda, gpus)))
                .containsExactly(Device.parse("cuda:0"), Device.parse("cuda:1"),
                        Device.parse("cuda:0"), Device.parse("cuda:1"));
        assertThat(take(Device.parse("auto"), gpus).index()).isZero();
    }

    @Test
    void aClosedSubtaskGivesItsGpuBackToTheNextOne() {
        List<ExternalResourceInfo> gpus = List.of(new Gpu("0"), new Gpu("1"), new Gpu("2"));
        Device cuda = Device.parse("cuda");
        DevicePlacement.Lease first = DevicePlacement.take(cuda, gpus);
        DevicePlacement.Lease second = DevicePlacement.take(cuda, gpus);
        open.add(second);
        assertThat(first.device()).isEqualTo(Device.parse("cuda:0"));
        assertThat(second.device()).isEqualTo(Device.parse("cuda:1"));
        first.close();
        first.close(); // closing twice counts once
        assertThat(take(cuda, gpus)).isEqualTo(Device.parse("cuda:0")); // restarted after a failure
        assertThat(take(cuda, gpus)).isEqualTo(Device.parse("cuda:2"));
        assertThat(take(cuda, gpus)).isEqualTo(Device.parse("cuda:0"));
    }

    @Test
    void cpuAndNoReportedGpusKeepTheRequestedDevice() {
        DevicePlacement.Lease cpu = DevicePlacement.take(Device.CPU, List.of(new Gpu("0")));
        assertThat(cpu.device()).isEqualTo(Device.CPU);
        cpu.close();
        assertThat(take(Device.parse("cuda:3"), Set.of())).isEqualTo(Device.parse("cuda:3"));
        assertThat(take(Device.parse("cuda"), List.of(new Gpu("0")))).isEqualTo(Device.parse("cuda:0"));
    }
}
