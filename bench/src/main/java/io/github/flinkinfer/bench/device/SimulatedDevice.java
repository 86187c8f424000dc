package io.github.flinkinfer.bench.device;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One simulated accelerator: a single stream that every subtask of the JVM (the TaskManager)
 * placed on it shares, as a real GPU serializes the kernels of its callers. A call holds the
 * stream for its {@link DeviceCost} (parked, no CPU spent), callers queue in arrival order
 * (a fair lock), and the device counts its busy and queueing time, so busy % = busy ÷ wall.
 *
 * <pre>{@code
 * SimulatedDevice gpu = SimulatedDevice.of("run-1", 0);
 * long held = gpu.run(cost.nanos(rows, paddedLength)); // queues for the stream, holds it that long
 * double busy = gpu.busyNanos() / (double) wallNanos;
 * }</pre>
 */
public final class SimulatedDevice {
    private static final Map<String, SimulatedDevice> DEVICES = new ConcurrentHashMap<>();

    private final ReentrantLock stream = new ReentrantLock(true);
    private final AtomicLong busyNanos = new AtomicLong();
    private final AtomicLong queuedNanos = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();

    private SimulatedDevice() {}

    /** The JVM-wide device {@code index} of {@code fleet} (a run's set of devices). */
    public static SimulatedDevice of(String fleet, int index) {
        return DEVICES.computeIfAbsent(fleet + "/" + index, k -> new SimulatedDevice());
    }

    /** Busy nanoseconds of every device of {@code fleet} together. */
    public static long fleetBusyNanos(String fleet) {
        return fleet(fleet).mapToLong(SimulatedDevice::busyNanos).sum();
    }

    /** Nanoseconds callers of {@code fleet}'s devices waited for a stream, together. */
    public static long fleetQueuedNanos(String fleet) {
        return fleet(fleet).mapToLong(SimulatedDevice::queuedNanos).sum();
    }

    /** Calls on {@code fleet}'s devices, together. */
    public static long fleetCallCount(String fleet) {
        return fleet(fleet).mapToLong(SimulatedDevice::calls).sum();
    }

    private static java.util.stream.Stream<SimulatedDevice> fleet(String fleet) {
        return DEVICES.entrySet().stream().filter(e -> e.getKey().startsWith(fleet + "/")).map(Map.Entry::getValue);
    }

    /**
     * Waits for the stream, holds it for {@code nanos} (a little more: the park's timer slack) and
     * returns how long it held it. Interruption ends the hold early (the task is being
     * cancelled) and is kept.
     */
    public long run(long nanos) {
        long asked = System.nanoTime();
        stream.lock();
        try {
            long start = System.nanoTime();
            long end = start + nanos;
            for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); left = end - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            long held = System.nanoTime() - start;
            busyNanos.addAndGet(held);
            calls.incrementAndGet();
            queuedNanos.addAndGet(start - asked);
            return held;
        } finally {
            stream.unlock();
        }
    }

    public long busyNanos() {
        return busyNanos.get();
    }

    public long queuedNanos() {
        return queuedNanos.get();
    }

    public long calls() {
        return calls.get();
    }
}
