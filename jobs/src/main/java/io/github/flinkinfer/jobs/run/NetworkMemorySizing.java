package io.github.flinkinfer.jobs.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How much network memory a job's exchanges need, by the rule Flink 2.3 uses to announce a task's
 * network memory ({@code NettyShuffleUtils.computeNetworkBuffersForAnnouncing}), so a TaskManager
 * is sized from the job (its exchanges and their parallelism) rather than keeping Flink's 64 MiB
 * whatever the parallelism. Each exchange that leaves its task (not chained) has a result
 * partition in every producing subtask and an input gate in every consuming one:
 * <ul>
 *   <li>input gate of {@code c} channels: {@code c × 2 + 8} buffers (2 exclusive buffers per
 *       channel and 8 floating per gate, both fixed in Flink 2.3; they were {@code
 *       taskmanager.network.memory.buffers-per-channel} and {@code floating-buffers-per-gate});</li>
 *   <li>pipelined result partition of {@code s} subpartitions: {@code s × 2 + 8} (it may be
 *       back-pressured, so it gets its floating buffers too);</li>
 *   <li>blocking result partition: {@code max(s + 1, taskmanager.network.sort-shuffle.min-buffers)}
 *       (it writes to files and is never back-pressured; Flink sorts every blocking partition,
 *       so it takes the sort buffers: 512 on a cluster, 16 on a local one);</li>
 * </ul>
 * times {@code taskmanager.memory.segment-size} (32 KiB). A slot holds one subtask of every
 * vertex (one slot-sharing group), so it needs one partition and one gate per exchange; a
 * TaskManager of {@code n} slots the smaller of {@code n} slots' worth and the whole job's.
 * Pointwise exchanges count the few channels each subtask has. It counts every exchange as
 * alive at once, which in BATCH mode (one region after another) is an upper bound.
 *
 * <p>A gate's exclusive buffers go to its <em>remote</em> channels only: Flink 2.3 requests them
 * in {@code RemoteInputChannel.setup()}, and a local channel reads its producer's buffers where
 * they lie. Where one TaskManager holds the whole job (the embedded cluster's default) every
 * channel is local, so {@link #withLocalChannelsOnly()} counts a gate's floating buffers alone:
 * no pool can ever hold more than that rule gives, so it changes no buffer a run gets, only the
 * memory Flink allocates and first touches as the TaskManager starts (122 against 91 MiB for
 * the default embed job at parallelism 16).
 *
 * <pre>{@code
 * NetworkMemorySizing sizing = NetworkMemorySizing.flinkDefaults();
 * long bytes = sizing.bytesPerTaskManager(List.of(new Exchange(16, 16, true, false)), 16);
 * }</pre>
 */
public record NetworkMemorySizing(long segmentBytes, int sortShuffleMinBuffers, boolean remoteChannels) {
    /** Exclusive buffers per input channel (Flink 2.3: fixed at 2). */
    public static final int BUFFERS_PER_CHANNEL = 2;
    /** Floating buffers per input gate and per pipelined result partition (Flink 2.3: fixed at 8). */
    public static final int FLOATING_BUFFERS_PER_GATE = 8;
    /** Flink's network memory on a local cluster ({@code taskmanager.memory.network.min/max}). */
    public static final long FLINK_DEFAULT_BYTES = 64L << 20;

    /** The rule for TaskManagers whose gates may have remote channels (any cluster of several TaskManagers). */
    public NetworkMemorySizing(long segmentBytes, int sortShuffleMinBuffers) {
        this(segmentBytes, sortShuffleMinBuffers, true);
    }

    /**
     * The same rule for one TaskManager that holds every subtask of the job: its gates' channels
     * are all local and take no exclusive buffers. Not for a job restored from an unaligned
     * checkpoint, whose recovered channels take them while they replay their in-flight data.
     */
    public NetworkMemorySizing withLocalChannelsOnly() {
        return new NetworkMemorySizing(segmentBytes, sortShuffleMinBuffers, false);
    }

    /** One exchange between two tasks: producer and consumer parallelism, and its kind. */
    public record Exchange(int producers, int consumers, boolean pipelined, boolean pointwise) {
        /** Channels of one consumer's input gate. */
        int channelsPerGate() {
            return pointwise ? Math.max(1, ceilDiv(producers, consumers)) : producers;
        }

        /** Subpartitions of one producer's result partition. */
        int subpartitions() {
            return pointwise ? Math.max(1, ceilDiv(consumers, producers)) : consumers;
        }
    }

    /** Flink 2.3's cluster defaults: 32 KiB segments, 512 sort-shuffle buffers. */
    public static NetworkMemorySizing flinkDefaults() {
        return new NetworkMemorySizing(32L << 10, 512);
    }

    /** Buffers one producing subtask's result partition of {@code e} takes. */
    public int partitionBuffers(Exchange e) {
        return e.pipelined()
                ? e.subpartitions() * BUFFERS_PER_CHANNEL + FLOATING_BUFFERS_PER_GATE
                : Math.max(e.subpartitions() + 1, sortShuffleMinBuffers);
    }

    /** Buffers one consuming subtask's input gate of {@code e} takes (floating only where its channels are local). */
    public int gateBuffers(Exchange e) {
        return (remoteChannels ? e.channelsPerGate() * BUFFERS_PER_CHANNEL : 0) + FLOATING_BUFFERS_PER_GATE;
    }

    /** Buffers of one slot holding one subtask of every vertex. */
    public long buffersPerSlot(List<Exchange> exchanges) {
        return exchanges.stream().mapToLong(e -> partitionBuffers(e) + gateBuffers(e)).sum();
    }

    /** Buffers of every subtask of the job together (one TaskManager holding them all). */
    public long buffersOfJob(List<Exchange> exchanges) {
        return exchanges.stream()
                .mapToLong(e -> (long) e.producers() * partitionBuffers(e) + (long) e.consumers() * gateBuffers(e))
                .sum();
    }

    /** Network memory of a TaskManager of {@code slots} slots running this job, in bytes. */
    public long bytesPerTaskManager(List<Exchange> exchanges, int slots) {
        long buffers = Math.min(slots * buffersPerSlot(exchanges), buffersOfJob(exchanges));
        return buffers * segmentBytes;
    }

    /** Network memory of one slot, in bytes. */
    public long bytesPerSlot(List<Exchange> exchanges) {
        return buffersPerSlot(exchanges) * segmentBytes;
    }

    /**
     * The need of a job of {@code exchanges} all-to-all pipelined exchanges at {@code parallelism},
     * per TaskManager holding all of it.
     */
    public long bytesForAllToAll(int exchanges, int parallelism) {
        return bytesForShape(exchanges, 0, parallelism);
    }

    /**
     * The need of a job of {@code allToAll} all-to-all pipelined exchanges and {@code pointwise}
     * one-to-one blocking ones at {@code parallelism}, per TaskManager holding all of it: an
     * estimate for before the job graph exists. The all-to-all part grows with the square of the
     * parallelism, the rest linearly.
     */
    public long bytesForShape(int allToAll, int pointwise, int parallelism) {
        List<Exchange> shape = new ArrayList<>(
                Collections.nCopies(allToAll, new Exchange(parallelism, parallelism, true, false)));
        shape.addAll(Collections.nCopies(pointwise, new Exchange(parallelism, parallelism, false, true)));
        return bytesPerTaskManager(shape, parallelism);
    }

    /**
     * What to give a TaskManager: the need rounded up to whole MiB, and never less than Flink's
     * default (the job's exchanges are not all that uses network buffers: a little headroom).
     */
    public static long roundedUp(long bytes) {
        return roundedUp(bytes, FLINK_DEFAULT_BYTES);
    }

    /** The need rounded up to whole MiB, and never less than {@code floor}. */
    public static long roundedUp(long bytes, long floor) {
        long mib = 1L << 20;
        return Math.max(floor, ceilDiv(bytes, mib) * mib);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
