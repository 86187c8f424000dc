package io.github.flinkinfer.jobs.plan;

import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.jobs.run.TaskManagerNetwork;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * {@code plan}'s cluster sizing: the network memory the embed job at a parallelism needs, from
 * its real job graph (built, never submitted) by the rule the run's own pre-flight uses
 * ({@link TaskManagerNetwork#preflight}), so a session or application cluster can be sized
 * before the run is submitted.
 */
public final class ClusterSizing {
    private ClusterSizing() {}

    /**
     * The sizing lines for {@code embed} of {@code input} with {@code model} at {@code parallelism},
     * its arguments decided by {@code embed} itself: a heading, the cluster's line (or its refusal when the client's configuration caps
     * {@code taskmanager.memory.network.max} below the need; {@code flinkOptions} are
     * {@code -D}'s, as embed takes them), the least a cluster TaskManager
     * must have (the pipelined exchanges) and the embedded cluster's.
     * {@code tokenizeParallelism} is embed's {@code --tokenize-parallelism} (0: chained with
     * inference). TaskManagers hold as many slots as the widest of the two unless the
     * configuration sets {@code taskmanager.numberOfTaskSlots}.
     */
    static List<String> lines(EmbedRun embed, Path input, String textField, String model, int maxLength,
            int parallelism, int tokenizeParallelism, Map<String, String> flinkOptions) throws Exception {
        Path output = Files.createTempDirectory("plan-sizing");
        try {
            List<String> args = new ArrayList<>(List.of("--input", input.toString(), "--output", output.toString(),
                    "--text-field", textField, "--model", model, "--max-length", String.valueOf(maxLength),
                    "--parallelism", String.valueOf(parallelism), "--run-id", "plan"));
            if (tokenizeParallelism > 0) {
                args.addAll(List.of("--tokenize-parallelism", String.valueOf(tokenizeParallelism)));
            }
            flinkOptions.forEach((key, value) -> args.add("-D" + key + "=" + value));
            Built built = build(embed, args.toArray(String[]::new));
            String shape = "--parallelism " + parallelism
                    + (tokenizeParallelism > 0 ? " --tokenize-parallelism " + tokenizeParallelism : "");
            return lines(built.conf(), built.graph(), shape, built.parallelism(), Math.max(parallelism, tokenizeParallelism));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /**
     * The job graph of {@code embed args} as the run builds it before submitting (its
     * {@code --parallelism} the environment's), never submitted, with the configuration it was
     * decided under ({@code -D}'s included).
     */
    public record Built(ReadableConfig conf, StreamGraph graph, int parallelism) {
        /** The run's own pre-flight line ({@link TaskManagerNetwork#preflight}); throws its refusal. */
        public String preflight() {
            return TaskManagerNetwork.preflight(conf, graph, parallelism);
        }

        /** The network memory the job needs by the rule for {@code conf}'s TaskManagers. */
        public TaskManagerNetwork.Need need() {
            return TaskManagerNetwork.of(TaskManagerNetwork.sizing(conf), graph, parallelism);
        }
    }

    /** {@code embed args} decided by {@code embed} and built ({@link Built}). */
    public static Built build(EmbedRun embed, String... args) throws Exception {
        EmbedRun.Decided run = embed.decide(args);
        StreamExecutionEnvironment env = run.env();
        RunSpec spec = run.spec();
        if (spec.execution().parallelism() > 0) {
            env.setParallelism(spec.execution().parallelism());
        }
        InferencePipeline.build(env, spec, ModelRuntimeFactory.onnx(spec.card(), spec.runtime()), new EmbeddingTask());
        return new Built(env.getConfiguration(), env.getStreamGraph(false), env.getParallelism());
    }

    /**
     * The sizing lines for {@code graph} at {@code parallelism} (the arguments that gave it:
     * {@code shape}) under the client configuration {@code conf}; TaskManagers of
     * {@code slotsByDefault} slots unless {@code conf} sets them.
     */
    static List<String> lines(ReadableConfig conf, StreamGraph graph, String shape, int parallelism, int slotsByDefault) {
        Configuration client = Configuration.fromMap(conf.toMap());
        if (!client.contains(TaskManagerOptions.NUM_TASK_SLOTS)) {
            client.set(TaskManagerOptions.NUM_TASK_SLOTS, slotsByDefault);
        }
        int slots = client.get(TaskManagerOptions.NUM_TASK_SLOTS);
        String cluster;
        try {
            cluster = TaskManagerNetwork.preflight(client, graph, parallelism);
        } catch (IllegalArgumentException refused) {
            cluster = "would be refused: " + refused.getMessage();
        }
        TaskManagerNetwork.Need pipelined = TaskManagerNetwork.of(TaskManagerNetwork.sizing(client), graph,
                parallelism).pipelined();
        TaskManagerNetwork.Need embedded = TaskManagerNetwork.of(TaskManagerNetwork.embeddedSizing(client), graph,
                parallelism);
        return List.of("cluster sizing at " + shape + " (embed's job graph):",
                "  session/application cluster: " + cluster,
                String.format(Locale.ROOT, "  the least (pipelined exchanges alone; the rest is blocking exchanges' sort"
                                + " buffers): %s per slot, %s per TaskManager of %d slot(s)",
                        human(pipelined.bytesPerSlot()), human(pipelined.bytesPerTaskManager(slots)), slots),
                String.format(Locale.ROOT, "  embedded cluster (%s): %s per slot, %s per TaskManager"
                                + " of %d slot(s)", TaskManagerNetwork.configured(client)
                                ? "taskmanager.memory.network.* as configured; sized automatically it would take"
                                : "sized automatically", human(embedded.bytesPerSlot()),
                        human(embedded.bytesPerTaskManager(slots)), slots));
    }

    private static String human(long bytes) {
        return new MemorySize(bytes).toHumanReadableString();
    }
}
