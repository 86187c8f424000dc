package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.operators.run.ForwardingFactory;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Test-only model runtime that fails its task once (a non-inference exception, so no bisecting)
 * once {@link #embedFailingOnce} arms it, i.e. after it has seen a completed checkpoint. Slows each
 * batch a little so the job is still running then. State is static: the MiniCluster shares the JVM.
 */
public final class FailOnceAfterCheckpoint extends ForwardingFactory {
    private static final long serialVersionUID = 1L;
    private static final AtomicBoolean ARMED = new AtomicBoolean();
    public static final AtomicBoolean FIRED = new AtomicBoolean();

    public FailOnceAfterCheckpoint(ModelRuntimeFactory delegate) {
        super(delegate);
    }

    /**
     * A MiniCluster configuration of tiny network buffers: little data is in flight, so an aligned
     * checkpoint completes while most of the corpus is still to be read and embedded.
     */
    public static Configuration smallNetworkBuffers() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MEMORY_SEGMENT_SIZE, MemorySize.parse("4kb"));
        conf.setString("taskmanager.network.memory.buffers-per-channel", "1");
        conf.setString("taskmanager.network.memory.floating-buffers-per-gate", "1");
        conf.setString("taskmanager.network.memory.max-buffers-per-channel", "1");
        return conf;
    }

    /**
     * Runs the embed job of {@code o} on {@code env} in STREAMING with exactly-once checkpoints,
     * failing it once after its first committed output file under {@code out} (a completed
     * checkpoint); returns when the restarted job has finished. {@link #FIRED} tells that it failed.
     */
    public static void embedFailingOnce(RunOptions o, StreamExecutionEnvironment env, Path out) throws Exception {
        ARMED.set(false);
        FIRED.set(false); // the state outlives the test class that used it
        env.setParallelism(o.parallelism);
        env.enableCheckpointing(o.checkpointIntervalMillis, CheckpointingMode.EXACTLY_ONCE);
        InferencePipeline.build(env, o.spec("embed", env), new FailOnceAfterCheckpoint(
                ModelRuntimeFactory.onnx(o.modelCard(), o.runtimeOptions())), new EmbeddingTask());
        CompletableFuture<Void> job = CompletableFuture.runAsync(() -> {
            try {
                env.execute("checkpoint restart");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        while (Outputs.committed(out.resolve("embeddings")).isEmpty() && !job.isDone()) {
            Thread.sleep(50);
        }
        ARMED.set(true);
        job.get();
    }

    @Override
    protected void beforeInfer(List<int[]> batch) {
        if (ARMED.get() && FIRED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure after a completed checkpoint");
        }
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
