package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.JvmShared;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.externalresource.ExternalResourceInfo;

/**
 * Picks the GPU for an inference subtask from the GPUs Flink's external resource framework
 * reports for its TaskManager ({@code external-resource.gpu.*} with the GPU driver plugin,
 * property {@code index}): the one the fewest of this TaskManager's open subtasks hold, the lowest
 * index among equals, held until the subtask closes its {@link Lease}. So the subtasks a
 * TaskManager runs spread evenly over its GPUs whatever their indices: Flink places subtasks on
 * TaskManagers by slot, not by index (a TaskManager of two GPUs ran inference subtasks 0 and 2 of
 * 4 in one run, which the index modulo its GPU count put both on its first GPU). Without reported
 * GPUs, or on the CPU, the requested device is used as given (the MiniCluster never reports any).
 */
public final class DevicePlacement {
    /** Flink's resource name for GPUs, as configured in {@code external-resources}. */
    public static final String GPU_RESOURCE = "gpu";

    /** Open subtasks per GPU index in this JVM (one TaskManager, with the jar in Flink's lib/). */
    private static final Map<Integer, Integer> HOLDERS = JvmShared.slot("placement.gpu-holders",
            "how many open inference subtasks of this TaskManager hold each GPU, so the next one"
                    + " takes the least held", TreeMap::new, Map::clear);

    private DevicePlacement() {}

    /** A subtask's device; {@link #close()} gives its GPU back to the TaskManager's count. */
    public static final class Lease implements AutoCloseable {
        private final Device device;
        private final Integer held; // the GPU index counted, null when none was
        private boolean closed;

        private Lease(Device device, Integer held) {
            this.device = device;
            this.held = held;
        }

        public Device device() {
            return device;
        }

        @Override
        public void close() {
            synchronized (HOLDERS) {
                if (held == null || closed) {
                    return;
                }
                closed = true;
                HOLDERS.computeIfPresent(held, (k, n) -> n > 1 ? n - 1 : null);
            }
        }
    }

    /** The device for a subtask that asked for {@code requested}, on a TaskManager with {@code gpus}. */
    public static Lease take(Device requested, Collection<ExternalResourceInfo> gpus) {
        if (requested.kind() == Device.Kind.CPU || gpus == null || gpus.isEmpty()) {
            return new Lease(requested, null);
        }
        List<Integer> indices = new ArrayList<>();
        for (ExternalResourceInfo gpu : gpus) {
            gpu.getProperty("index").ifPresent(i -> indices.add(Integer.parseInt(i.trim())));
        }
        if (indices.isEmpty()) {
            return new Lease(requested, null);
        }
        indices.sort(null);
        synchronized (HOLDERS) {
            int least = indices.get(0);
            for (int index : indices) {
                if (HOLDERS.getOrDefault(index, 0) < HOLDERS.getOrDefault(least, 0)) {
                    least = index;
                }
            }
            HOLDERS.merge(least, 1, Integer::sum);
            return new Lease(requested.withIndex(least), least);
        }
    }
}
