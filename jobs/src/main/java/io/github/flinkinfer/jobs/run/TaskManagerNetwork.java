package io.github.flinkinfer.jobs.run;

import io.github.flinkinfer.jobs.run.NetworkMemorySizing.Exchange;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * A TaskManager's network memory for a job, between {@link NetworkMemorySizing} and Flink's
 * configuration: what the embedded cluster gets where the configuration leaves
 * {@code taskmanager.memory.network.min/max/fraction} unset (which always wins where set).
 */
public final class TaskManagerNetwork {
    private TaskManagerNetwork() {}

    /**
     * All-to-all exchanges assumed before the job graph exists (the embedded cluster starts
     * early, and allocates all of its network memory as it starts): the default keep-first run
     * has 3 (documents to tokenize, marks to the decision, dropped positions to every filter),
     * {@code --tokenize-parallelism} adds the tokens' and the results' ({@code
     * EstimatedExchangesTest}).
     */
    public static final int ESTIMATED_ALL_TO_ALL = 5;

    /**
     * Blocking one-to-one exchanges assumed with them, standing in for the rest of the job's
     * exchanges (writers to committers, error rows, the ledger's tallies, the batch rows: 16 in the
     * default run, most to one subtask or pipelined), whose buffers grow linearly with the
     * parallelism: 196–268 buffers per subtask on one TaskManager, 9–11 such exchanges' worth.
     */
    public static final int ESTIMATED_POINTWISE = 10;

    /**
     * The embedded cluster's buffer size where the configuration sets none: half Flink's 32 KiB.
     * Its exchanges are all in one JVM (no TCP to fill), its records are small (a document a few
     * hundred bytes, a 384-dimension result 1.6 KB), and Flink allocates and first touches all of
     * its network memory as the cluster starts, on the job's critical path: 408 MiB at parallelism
     * 16 took 1.3 s of that start on the 2-core development VM (docs/benchmarks/segment-size-2026-12-06.md).
     * Halving the buffers halves that memory and its buffers-per-channel rule stays the same.
     */
    public static final MemorySize EMBEDDED_SEGMENT_SIZE = MemorySize.parse("16kb");

    /**
     * The least network memory an embedded TaskManager gets where the configuration sets none.
     * On its rule ({@link #embeddedSizing}: local channels, whose pipelined partitions and gates
     * never hold more than it counts) the embed job needs 6–14 MiB at parallelism 1 and 2, in
     * every mode and dedupe; 16 MiB leaves room for shapes the early estimate does not model (a
     * job it does not fit gets a second cluster). Flink's 64 MiB, the floor until 2026-12-07, took
     * 0.1–0.3 s more of the cluster's start on the 2-core development VM, memory first touched
     * and never used.
     */
    public static final long EMBEDDED_FLOOR_BYTES = 16L << 20;

    /**
     * The early embedded cluster's network memory at {@code parallelism}: what {@link
     * #ESTIMATED_ALL_TO_ALL} and {@link #ESTIMATED_POINTWISE} exchanges need on {@link
     * #embeddedSizing}'s rule: 120 MiB at parallelism 16 for a default job that needs 91 (600 MiB at
     * 48 for 413), with {@link #EMBEDDED_SEGMENT_SIZE} buffers. Counting gates' exclusive buffers
     * and 16 one-to-one exchanges, the estimate until 2026-12-07 allocated 204 MiB at 16 and 1.07
     * GiB at 48; twelve all-to-all exchanges of 32 KiB buffers, the one before 2026-12-06, 480 MiB
     * at 16 and 3.7 GiB at 48.
     */
    public static long estimatedBytes(ReadableConfig conf, int parallelism) {
        return embeddedSizing(conf).bytesForShape(ESTIMATED_ALL_TO_ALL, ESTIMATED_POINTWISE, parallelism);
    }

    /** The sizing rule with the segment size and sort-shuffle buffers of a TaskManager of {@code conf}. */
    public static NetworkMemorySizing sizing(ReadableConfig conf) {
        return new NetworkMemorySizing(conf.get(TaskManagerOptions.MEMORY_SEGMENT_SIZE).getBytes(),
                conf.get(NettyShuffleEnvironmentOptions.NETWORK_SORT_SHUFFLE_MIN_BUFFERS));
    }

    /**
     * The sizing rule of an embedded TaskManager of {@code conf}, as the MiniCluster sets it (16 sort
     * buffers) with {@link #forEmbeddedCluster}'s segment size; where it is the only TaskManager
     * ({@code local.number-taskmanager}, 1 unless set), with local channels only ({@link
     * NetworkMemorySizing#withLocalChannelsOnly()}), unless unaligned checkpoints are on.
     */
    public static NetworkMemorySizing embeddedSizing(ReadableConfig conf) {
        Configuration c = new MiniClusterConfiguration.Builder().setConfiguration(forEmbeddedCluster(conf, 0))
                .build().getConfiguration();
        NetworkMemorySizing sizing = sizing(c);
        boolean oneTaskManager = c.get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS) == 1;
        return oneTaskManager && !c.get(CheckpointingOptions.ENABLE_UNALIGNED) ? sizing.withLocalChannelsOnly()
                : sizing;
    }

    /** Whether {@code conf} sets the network memory itself (min, max or fraction). */
    public static boolean configured(ReadableConfig conf) {
        return conf.getOptional(TaskManagerOptions.NETWORK_MEMORY_MIN).isPresent()
                || conf.getOptional(TaskManagerOptions.NETWORK_MEMORY_MAX).isPresent()
                || conf.getOptional(TaskManagerOptions.NETWORK_MEMORY_FRACTION).isPresent();
    }

    /**
     * {@code conf} as the embedded cluster's TaskManagers get it: buffers of {@link
     * #EMBEDDED_SEGMENT_SIZE} unless it sets {@code taskmanager.memory.segment-size}, and network
     * memory min = max = {@code bytes} ({@link #embeddedBytes}; 0 = as it is).
     */
    public static Configuration forEmbeddedCluster(ReadableConfig conf, long bytes) {
        Configuration c = Configuration.fromMap(conf.toMap());
        if (!c.contains(TaskManagerOptions.MEMORY_SEGMENT_SIZE)) {
            c.set(TaskManagerOptions.MEMORY_SEGMENT_SIZE, EMBEDDED_SEGMENT_SIZE);
        }
        if (bytes > 0) {
            MemorySize size = new MemorySize(embeddedBytes(bytes));
            c.set(TaskManagerOptions.NETWORK_MEMORY_MIN, size);
            c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, size);
        }
        return c;
    }

    /** What an embedded TaskManager whose job needs {@code bytes} gets: whole MiB, at least {@link #EMBEDDED_FLOOR_BYTES}. */
    public static long embeddedBytes(long bytes) {
        return NetworkMemorySizing.roundedUp(bytes, EMBEDDED_FLOOR_BYTES);
    }

    /** The network memory an embedded TaskManager of {@code conf} gets (Flink: 64 MiB unless set). */
    public static MemorySize embedded(ReadableConfig conf) {
        return conf.getOptional(TaskManagerOptions.NETWORK_MEMORY_MIN)
                .or(() -> conf.getOptional(TaskManagerOptions.NETWORK_MEMORY_MAX))
                .orElse(new MemorySize(NetworkMemorySizing.FLINK_DEFAULT_BYTES));
    }

    /** The exchanges of {@code graph} and the slots a TaskManager of {@code taskManagers} holds for it. */
    public record Need(List<Exchange> exchanges, int widest, NetworkMemorySizing sizing) {
        public long bytesPerSlot() {
            return sizing.bytesPerSlot(exchanges);
        }

        public long bytesPerTaskManager(int slots) {
            return sizing.bytesPerTaskManager(exchanges, slots);
        }

        /** The pipelined exchanges alone (alive together in any case): the least a TaskManager must have. */
        public Need pipelined() {
            return new Need(exchanges.stream().filter(Exchange::pipelined).toList(), widest, sizing);
        }
    }

    /** What the job of {@code graph} needs (vertices without a parallelism get {@code parallelism}). */
    public static Need of(NetworkMemorySizing sizing, StreamGraph graph, int parallelism) {
        var jobGraph = graph.getJobGraph();
        int widest = 1;
        for (var v : jobGraph.getVertices()) {
            widest = Math.max(widest, v.getParallelism() > 0 ? v.getParallelism() : parallelism);
        }
        return new Need(JobExchanges.of(jobGraph, parallelism), widest, sizing);
    }

    /**
     * The pre-flight of a run on a session or application cluster: a line naming the network
     * memory its TaskManagers need for {@code graph}; refuses (one line naming the setting) when the
     * client's configuration ({@code config.yaml}, {@code -D}) caps {@code taskmanager.memory.network.max}
     * below that for its {@code taskmanager.numberOfTaskSlots}. The TaskManagers' own
     * configuration is not visible from the client: nothing else is checked. The refusal counts
     * only the pipelined exchanges (alive together in any case); the line names the upper bound.
     */
    public static String preflight(ReadableConfig client, StreamGraph graph, int parallelism) {
        Need need = of(sizing(client), graph, parallelism);
        int slots = client.get(TaskManagerOptions.NUM_TASK_SLOTS);
        MemorySize perTaskManager = new MemorySize(NetworkMemorySizing.roundedUp(need.bytesPerTaskManager(slots)));
        var max = client.getOptional(TaskManagerOptions.NETWORK_MEMORY_MAX);
        long pipelined = need.pipelined().bytesPerTaskManager(slots);
        if (max.isPresent() && max.get().getBytes() < pipelined) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "TaskManagers of %d slot(s) need %s of network memory for this job at parallelism %d"
                            + " (%d exchanges, %s per slot), but %s is %s: raise it (and %s) or lower"
                            + " --parallelism (docs/operations.md, \"Network memory\")",
                    slots, new MemorySize(pipelined).toHumanReadableString(), need.widest(), need.exchanges().size(),
                    new MemorySize(need.bytesPerSlot()).toHumanReadableString(),
                    TaskManagerOptions.NETWORK_MEMORY_MAX.key(), max.get().toHumanReadableString(),
                    TaskManagerOptions.NETWORK_MEMORY_MIN.key()));
        }
        return String.format(java.util.Locale.ROOT,
                "network memory: %s per slot, %s per TaskManager of %d slot(s) (%s, %d exchanges at parallelism %d)",
                new MemorySize(need.bytesPerSlot()).toHumanReadableString(), perTaskManager.toHumanReadableString(),
                slots, TaskManagerOptions.NETWORK_MEMORY_MAX.key() + " >= that", need.exchanges().size(), need.widest());
    }
}
