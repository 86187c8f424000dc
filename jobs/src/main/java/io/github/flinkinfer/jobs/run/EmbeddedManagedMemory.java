package io.github.flinkinfer.jobs.run;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * The embedded TaskManager's managed memory, sized from its slots (issue 38): Flink gives a local
 * TaskManager 128 MiB whatever its slots, 64 MiB a slot at the default parallelism of 2 but 8 MiB
 * at 16 and 4 MiB at 32. BATCH sorts keyed inputs in it (keep-first's position marks; the
 * incremental index join and the chunk windows sort whole results), so at a high parallelism
 * every subtask spilled in smaller runs and merged more of them. Each slot now gets the 64 MiB of
 * the default parallelism, at most an eighth of the machine's memory over all TaskManagers and
 * never less than Flink's 128 MiB. Managed memory is native, reserved when a sorting operator
 * opens; a job without a keyed BATCH input never touches it. {@code taskmanager.memory.managed.size}
 * from the configuration or {@code -D} wins ({@code .fraction} has no effect on a local
 * TaskManager).
 *
 * <pre>{@code
 * Configuration sized = EmbeddedManagedMemory.withManagedMemory(conf, slots, taskManagers);
 * }</pre>
 */
public final class EmbeddedManagedMemory {
    /** What Flink's local default (128 MiB) gives each of the default parallelism's 2 slots. */
    public static final long PER_SLOT_BYTES = 64L << 20;
    /** Flink's managed memory for a local TaskManager that does not set it. */
    public static final long FLINK_LOCAL_DEFAULT_BYTES = 128L << 20;
    /** The share of the machine's memory all embedded TaskManagers' managed memory may take. */
    public static final int MACHINE_SHARE_DIVISOR = 8;

    private EmbeddedManagedMemory() {}

    /** The managed memory of one of {@code taskManagers} TaskManagers of {@code slots} slots, on a machine of {@code machineBytes}. */
    public static long bytes(int slots, int taskManagers, long machineBytes) {
        long wanted = Math.max(FLINK_LOCAL_DEFAULT_BYTES, (long) slots * PER_SLOT_BYTES);
        long cap = machineBytes / MACHINE_SHARE_DIVISOR / Math.max(1, taskManagers);
        return Math.max(FLINK_LOCAL_DEFAULT_BYTES, Math.min(wanted, cap));
    }

    /** {@code conf} with the managed memory of {@link #bytes} on this machine, unless it sets its own. */
    public static Configuration withManagedMemory(Configuration conf, int slots, int taskManagers) {
        if (conf.getOptional(TaskManagerOptions.MANAGED_MEMORY_SIZE).isPresent()) {
            return conf;
        }
        Configuration c = new Configuration(conf);
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, new MemorySize(bytes(slots, taskManagers, machineBytes())));
        return c;
    }

    /** The machine's physical memory (the JVM's heap limit × 4 where the platform does not say). */
    static long machineBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory() * 4;
    }
}
