package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.run.NetworkMemorySizing.Exchange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flink 2.3's buffer counts per gate and partition, and what they add up to per slot and TaskManager. */
class NetworkMemorySizingTest {
    private final NetworkMemorySizing cluster = NetworkMemorySizing.flinkDefaults();
    private final NetworkMemorySizing local = new NetworkMemorySizing(32 << 10, 16);

    @Test
    void aGateHasTwoBuffersPerChannelAndEightFloating() {
        Exchange e = new Exchange(16, 16, true, false);
        assertThat(cluster.gateBuffers(e)).isEqualTo(16 * 2 + 8);
        assertThat(cluster.partitionBuffers(e)).isEqualTo(16 * 2 + 8);
    }

    @Test
    void aBlockingPartitionTakesItsSortBuffersOrOnePerSubpartition() {
        Exchange e = new Exchange(32, 32, false, false);
        assertThat(cluster.partitionBuffers(e)).isEqualTo(512);
        assertThat(local.partitionBuffers(e)).isEqualTo(33);
        assertThat(local.gateBuffers(e)).isEqualTo(32 * 2 + 8);
    }

    @Test
    void aGateOfLocalChannelsTakesItsFloatingBuffersAlone() {
        // Flink requests exclusive buffers in RemoteInputChannel.setup() only
        NetworkMemorySizing oneTaskManager = local.withLocalChannelsOnly();
        Exchange e = new Exchange(16, 16, true, false);
        assertThat(oneTaskManager.gateBuffers(e)).isEqualTo(8);
        assertThat(oneTaskManager.partitionBuffers(e)).isEqualTo(local.partitionBuffers(e));
        assertThat(oneTaskManager.buffersOfJob(List.of(e))).isEqualTo(16 * 40 + 16 * 8);
        assertThat(local.gateBuffers(e)).isEqualTo(16 * 2 + 8);
    }

    @Test
    void aPointwiseExchangeHasOneChannelPerSubtask() {
        Exchange forward = new Exchange(16, 16, true, true);
        assertThat(cluster.gateBuffers(forward)).isEqualTo(10);
        assertThat(cluster.partitionBuffers(forward)).isEqualTo(10);
    }

    @Test
    void aSlotHoldsOneSubtaskOfEachVertexAndATaskManagerAtMostTheWholeJob() {
        List<Exchange> job = List.of(new Exchange(16, 16, true, false), new Exchange(16, 1, false, false));
        // pipelined: 40 + 40; blocking P -> 1: a partition of max(1 + 1, 16), a gate of 16 x 2 + 8
        assertThat(local.buffersPerSlot(job)).isEqualTo(80 + (16 + 40));
        assertThat(local.buffersOfJob(job)).isEqualTo(16 * 40 + 16 * 40 + 16 * 16 + 40);
        assertThat(local.bytesPerTaskManager(job, 16)).isEqualTo(local.buffersOfJob(job) * (32 << 10));
        assertThat(local.bytesPerTaskManager(job, 1)).isEqualTo(local.buffersPerSlot(job) * (32 << 10));
    }

    @Test
    void theNeedGrowsWithTheSquareOfTheParallelismAndNeverFallsBelowFlinksDefault() {
        assertThat(NetworkMemorySizing.roundedUp(local.bytesForAllToAll(6, 1))).isEqualTo(64L << 20);
        assertThat(NetworkMemorySizing.roundedUp(local.bytesForAllToAll(6, 2))).isEqualTo(64L << 20);
        // 6 exchanges x 2 x 16 subtasks x (16 x 2 + 8) buffers of 32 KiB
        assertThat(local.bytesForAllToAll(6, 16)).isEqualTo(6L * 2 * 16 * 40 * (32 << 10));
        assertThat(local.bytesForAllToAll(6, 32)).isEqualTo(4 * local.bytesForAllToAll(6, 16) + 6L * 2 * 32 * -8 * (32 << 10));
        assertThat(NetworkMemorySizing.roundedUp(1)).isEqualTo(64L << 20);
        assertThat(NetworkMemorySizing.roundedUp((100L << 20) + 1)).isEqualTo(101L << 20);
        assertThat(NetworkMemorySizing.roundedUp(1, 16L << 20)).isEqualTo(16L << 20);
    }
}
