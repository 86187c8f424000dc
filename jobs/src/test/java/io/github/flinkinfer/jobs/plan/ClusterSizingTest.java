package io.github.flinkinfer.jobs.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan}'s cluster sizing: the network memory the embed job's own graph needs at a parallelism. */
class ClusterSizingTest {
    @TempDir Path dir;

    @Test
    void namesTheNetworkMemoryOfTheEmbedJobAtParallelism16() throws Exception {
        Path corpus = Corpus.writeJsonl(dir.resolve("c.jsonl"), Corpus.sample(20));

        List<String> lines = ClusterSizing.lines(RunOptions::embed, corpus, "text", "all-minilm-l6-v2-q", 0, 16, 0, Map.of());

        // NetworkMemorySizing's rule on the embed job's 19 exchanges at P=16, TaskManagers of 16 slots
        // (no taskmanager.numberOfTaskSlots set): docs/operations.md's table, "Network memory"
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("cluster sizing at --parallelism 16 (embed's job graph):");
        assertThat(lines.get(1)).startsWith("  session/application cluster: network memory: 119.125mb")
                .contains("per slot, 1.237gb").contains("per TaskManager of 16 slot(s)")
                .contains("taskmanager.memory.network.max >= that, 19 exchanges at parallelism 16");
        assertThat(lines.get(2)).contains("pipelined exchanges alone").contains("19.375mb")
                .contains("per slot, 197.500mb").endsWith("per TaskManager of 16 slot(s)");
        // the embedded cluster's 16 KiB buffers, and one TaskManager's local channels take no
        // exclusive buffers: 121.8 MiB with them
        assertThat(lines.get(3)).startsWith("  embedded cluster (sized automatically): 7.313mb")
                .contains("per slot, 90.750mb").endsWith("per TaskManager of 16 slot(s)");
    }

    @Test
    void refusesInOneLineNamingTheSettingWhenTheClientCapsNetworkMemory() throws Exception {
        Path corpus = Corpus.writeJsonl(dir.resolve("c.jsonl"), Corpus.sample(20));
        // plan -Dtaskmanager.memory.network.max=16mb: the TaskManagers the user means to run
        List<String> lines = ClusterSizing.lines(RunOptions::embed, corpus, "text", "all-minilm-l6-v2-q", 0, 16, 0,
                Map.of("taskmanager.memory.network.max", "16mb"));

        assertThat(lines.get(1)).startsWith("  session/application cluster: would be refused: TaskManagers of 16"
                + " slot(s) need 197.500mb").contains("taskmanager.memory.network.max is 16.000mb");
        assertThat(lines.get(2)).contains("per slot, 197.500mb");
        assertThat(lines.get(3)).startsWith("  embedded cluster (taskmanager.memory.network.* as configured; sized"
                + " automatically it would take): 7.313mb");
    }

    @Test
    void sizesAGpuShapeWithItsTokenizeParallelism() throws Exception {
        Path corpus = Corpus.writeJsonl(dir.resolve("c.jsonl"), Corpus.sample(20));
        // deploy/kubernetes/gpu-batch: 8 inference subtasks fed by 32 tokenize subtasks, TaskManagers of 16 slots
        List<String> lines = ClusterSizing.lines(RunOptions::embed, corpus, "text", "all-minilm-l6-v2-q", 0, 8, 32,
                Map.of("taskmanager.numberOfTaskSlots", "16"));
        // the tokens' and results' rebalances add 2 exchanges; the widest vertex (32) sets the channels
        assertThat(lines.get(0)).isEqualTo("cluster sizing at --parallelism 8 --tokenize-parallelism 32 (embed's job graph):");
        assertThat(lines.get(1)).startsWith("  session/application cluster: network memory: 127.500mb")
                .contains("per slot, 1.576gb").contains("per TaskManager of 16 slot(s)")
                .contains("21 exchanges at parallelism 32");
        assertThat(lines.get(2)).contains("per slot, 285.500mb").endsWith("per TaskManager of 16 slot(s)");
    }
}
