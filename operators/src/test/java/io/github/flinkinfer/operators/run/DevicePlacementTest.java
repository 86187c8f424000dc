package io.github.flinkinfer.operators.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.Device;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.common.externalresource.ExternalResourceInfo;
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

    @Test
    void spreadsSubtasksOverReportedGpus() {
        List<ExternalResourceInfo> gpus = List.of(new Gpu("1"), new Gpu("0"));
        Device cuda = Device.parse("cuda");
        assertThat(DevicePlacement.place(cuda, gpus, 0)).isEqualTo(Device.parse("cuda:0"));
        assertThat(DevicePlacement.place(cuda, gpus, 1)).isEqualTo(Device.parse("cuda:1"));
        assertThat(DevicePlacement.place(cuda, gpus, 2)).isEqualTo(Device.parse("cuda:0"));
        assertThat(DevicePlacement.place(Device.parse("auto"), gpus, 1).index()).isEqualTo(1);
    }

    @Test
    void cpuAndNoReportedGpusKeepTheRequestedDevice() {
        assertThat(DevicePlacement.place(Device.CPU, List.of(new Gpu("0")), 0)).isEqualTo(Device.CPU);
        assertThat(DevicePlacement.place(Device.parse("cuda:3"), Set.of(), 5)).isEqualTo(Device.parse("cuda:3"));
    }
}
