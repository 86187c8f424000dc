package io.github.flinkinfer.jobs.dataflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobEdge;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The embed job's failover regions: Flink joins the tasks that pipelined exchanges connect into
 * one region, deployed and restarted together. A blocking exchange inside a region would make its
 * consumer wait, deployed, for a partition that only a finished producer serves; so every
 * blocking exchange of every job shape must join two regions. Where the job is pipelined from its
 * readers to its writers, the error rows and the ledger's tallies reach their tasks in that region
 * too ({@code InferencePipeline.Inferred#pipelinedThrough}).
 */
class PipelinedRegionsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "''|true",
            "--duplicates allow|true",
            "--tokenize-parallelism 3|true",
            "--duplicates keep_first_before_inference|false",
            "--chunk-size 32 --chunk-overlap 8 --doc-pooling MEAN|false",
            "--runtime-mode STREAMING|true"})
    void noBlockingExchangeInsideARegion(String extra, boolean errorsAndLedgerPipelined) throws Exception {
        JobGraph graph = jobGraph(extra);
        Map<JobVertexID, JobVertexID> region = new HashMap<>();
        for (JobVertex v : graph.getVertices()) {
            region.put(v.getID(), v.getID());
        }
        List<JobEdge> blocking = new ArrayList<>();
        for (JobVertex v : graph.getVertices()) {
            for (JobEdge e : v.getInputs()) {
                if (e.getSource().getResultType().isPipelinedOrPipelinedBoundedResultPartition()) {
                    region.put(find(region, e.getSource().getProducer().getID()), find(region, v.getID()));
                } else {
                    blocking.add(e);
                }
            }
        }

        if (!extra.contains("STREAMING")) {
            assertThat(blocking).as("the committers' exchanges at least").isNotEmpty();
        }
        assertThat(blocking).allSatisfy(e -> assertThat(find(region, e.getSource().getProducer().getID()))
                .as("%s -> %s", e.getSource().getProducer().getName(), e.getTarget().getName())
                .isNotEqualTo(find(region, e.getTarget().getID())));
        JobVertex inference = vertex(graph, "batch-and-infer");
        for (String task : List.of("collect-errors", "run-ledger")) {
            assertThat(find(region, vertex(graph, task).getID()).equals(find(region, inference.getID())))
                    .as("%s in inference's region", task).isEqualTo(errorsAndLedgerPipelined);
        }
    }

    private JobGraph jobGraph(String extra) throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("corpus.jsonl"), Corpus.sample(4));
        List<String> args = new ArrayList<>(List.of("--input", input.toString(), "--output",
                tmp.resolve("out").toString(), "--parallelism", "2"));
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" ")));
        }
        if (!args.contains("--runtime-mode")) {
            args.addAll(List.of("--runtime-mode", "BATCH"));
        }
        RunOptions o = Jobs.options(args.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(2);
        env.setRuntimeMode(o.runtimeMode);
        if (o.runtimeMode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(1000);
        }
        InferencePipeline.build(env, o.spec("embed", env), ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()),
                new EmbeddingTask());
        return env.getStreamGraph().getJobGraph();
    }

    private static JobVertex vertex(JobGraph graph, String name) {
        for (JobVertex v : graph.getVertices()) {
            if (v.getName().contains(name)) {
                return v;
            }
        }
        throw new AssertionError("no task " + name);
    }

    private static JobVertexID find(Map<JobVertexID, JobVertexID> parent, JobVertexID id) {
        while (!parent.get(id).equals(id)) {
            id = parent.get(id);
        }
        return id;
    }
}
