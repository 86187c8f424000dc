package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.Outputs;
import io.github.flinkinfer.operators.run.ForwardingFactory;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ForwardingRuntime;
import io.github.flinkinfer.runtime.ModelRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * {@code --overlap AUTO} turns the inference thread on only where the model runs on a GPU. No
 * GPU here: the runtime below is the real ONNX model on CPU that <em>reports</em> the device it
 * was asked for (the seam the operator decides on), and records which threads ran its calls.
 */
class OverlapITCase extends ClusterTestBase {
    static final Set<String> THREADS = ConcurrentHashMap.newKeySet();

    @Test
    void autoOverlapsOnlyOnAGpuAndLosesNothing() throws Exception {
        Map<String, String> corpus = Corpus.sample(300);
        Path input = writeCorpus(corpus);

        THREADS.clear();
        Path gpu = run(input, "gpu", new Device(Device.Kind.CUDA, 0));
        assertThat(THREADS).isNotEmpty().allMatch(t -> t.startsWith("inference-"));
        assertThat(Outputs.embeddings(gpu).keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());

        THREADS.clear();
        Path cpu = run(input, "cpu", Device.CPU);
        assertThat(THREADS).isNotEmpty().noneMatch(t -> t.startsWith("inference-"));
        assertThat(Outputs.embeddings(cpu).keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
    }

    private Path run(Path input, String name, Device reported) throws Exception {
        Path out = tmp.resolve(name);
        RunOptions o = Jobs.options("--input", input.toString(), "--output", out.toString(),
                "--run-id", name, "--parallelism", "2", "--max-batch-tokens", "512");
        o.validate();
        StreamExecutionEnvironment env =
                o.environment();
        env.setParallelism(o.parallelism);
        InferencePipeline.build(env, o.spec("embed", env),
                new ReportsDevice(ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions()), reported),
                new EmbeddingTask());
        env.execute("overlap " + name);
        return out;
    }

    /** Runs the real model on CPU but reports {@code reported} as its device. */
    static final class ReportsDevice extends ForwardingFactory {
        private final Device reported;

        ReportsDevice(ModelRuntimeFactory delegate, Device reported) {
            super(delegate);
            this.reported = reported;
        }

        @Override
        public ModelRuntime open(Device device) {
            return new ForwardingRuntime(super.open(Device.CPU)) {
                @Override
                public Device device() {
                    return reported;
                }
            };
        }

        @Override
        protected void beforeInfer(List<int[]> batch) {
            THREADS.add(Thread.currentThread().getName());
        }
    }
}
