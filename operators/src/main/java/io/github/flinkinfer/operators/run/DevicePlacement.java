package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.runtime.Device;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.common.externalresource.ExternalResourceInfo;

/**
 * Picks the GPU for an inference subtask from the GPUs Flink's external resource framework
 * reports for its TaskManager ({@code external-resource.gpu.*} with the GPU driver plugin,
 * property {@code index}): subtasks are spread round-robin over them. Without reported GPUs the
 * requested device is used as given (the MiniCluster never reports any).
 */
public final class DevicePlacement {
    /** Flink's resource name for GPUs, as configured in {@code external-resources}. */
    public static final String GPU_RESOURCE = "gpu";

    private DevicePlacement() {}

    public static Device place(Device requested, Collection<ExternalResourceInfo> gpus, int subtask) {
        if (requested.kind() == Device.Kind.CPU || gpus == null || gpus.isEmpty()) {
            return requested;
        }
        List<Integer> indices = new ArrayList<>();
        for (ExternalResourceInfo gpu : gpus) {
            gpu.getProperty("index").ifPresent(i -> indices.add(Integer.parseInt(i.trim())));
        }
        if (indices.isEmpty()) {
            return requested;
        }
        indices.sort(null);
        return requested.withIndex(indices.get(subtask % indices.size()));
    }
}
