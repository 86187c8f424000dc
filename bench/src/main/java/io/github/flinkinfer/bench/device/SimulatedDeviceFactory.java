package io.github.flinkinfer.bench.device;

import io.github.flinkinfer.operators.run.ForwardingFactory;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ForwardingRuntime;
import io.github.flinkinfer.runtime.Inference;
import io.github.flinkinfer.runtime.ModelRuntime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runtimes on {@code devices} simulated GPUs of one TaskManager (this JVM): each subtask's
 * runtime is placed on device {@code k mod devices} in the order subtasks open, and reports
 * itself as {@code cuda:<k>} (so the operator behaves as on a GPU: overlap on under {@code AUTO},
 * the GPU price). A call computes its values with the delegate (the benchmark's fixture model, on
 * the calling thread, as the host part of a call) and then holds its device's one stream for
 * {@link DeviceCost} of the batch. The inference phase it reports is that hold only; the wait
 * for the stream is in the batch's total, not in any phase.
 *
 * <pre>{@code
 * ModelRuntimeFactory sim = new SimulatedDeviceFactory(ModelRuntimeFactory.onnx(fixture, options),
 *         "run-1", 1, new DeviceCost(300, 400_000));
 * InferenceRun.execute(new EmbeddingTask(), options, env, sim);
 * double busy = SimulatedDevice.fleetBusyNanos("run-1") / (double) windowNanos;
 * }</pre>
 */
public final class SimulatedDeviceFactory extends ForwardingFactory {
    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicInteger> OPENED = new ConcurrentHashMap<>();

    private final String fleet;
    private final int devices;
    private final DeviceCost cost;

    /** {@code fleet} names this run's devices (JVM-wide); {@code devices} of them, each costing {@code cost}. */
    public SimulatedDeviceFactory(ModelRuntimeFactory values, String fleet, int devices, DeviceCost cost) {
        super(values);
        if (devices < 1) {
            throw new IllegalArgumentException("devices must be >= 1");
        }
        this.fleet = fleet;
        this.devices = devices;
        this.cost = cost;
    }

    public int devices() {
        return devices;
    }

    public DeviceCost cost() {
        return cost;
    }

    @Override
    public ModelRuntime open(Device requested) {
        int index = OPENED.computeIfAbsent(fleet, k -> new AtomicInteger()).getAndIncrement() % devices;
        return new Simulated(delegate.open(Device.CPU), SimulatedDevice.of(fleet, index),
                new Device(Device.Kind.CUDA, index), cost);
    }

    /** The fixture's values, then the device's time. */
    static final class Simulated extends ForwardingRuntime {
        private final SimulatedDevice device;
        private final Device reported;
        private final DeviceCost cost;

        Simulated(ModelRuntime values, SimulatedDevice device, Device reported, DeviceCost cost) {
            super(values);
            this.device = device;
            this.reported = reported;
            this.cost = cost;
        }

        @Override
        public Inference infer(List<int[]> batch) {
            Inference values = delegate.infer(batch);
            int longest = 0;
            for (int[] ids : batch) {
                longest = Math.max(longest, ids.length);
            }
            long hold = device.run(cost.nanos(batch.size(), longest));
            return new Inference(values.vectors(), values.tensorNanos(), hold, values.postNanos());
        }

        @Override
        public Device device() {
            return reported;
        }
    }
}
