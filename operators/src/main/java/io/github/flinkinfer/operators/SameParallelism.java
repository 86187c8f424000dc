package io.github.flinkinfer.operators;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Keeps a step on the subtasks of the stage it follows: a step added after a stage with a
 * parallelism of its own (tokenize or the result filter at {@code --tokenize-parallelism}, say)
 * would otherwise take the job's parallelism, and Flink would put a shuffle, blocking in BATCH
 * mode, between them. Nothing changes where the stage has the job's parallelism.
 *
 * <pre>{@code
 * SameParallelism.as(rows.sinkTo(sink).getTransformation(), rows);
 * }</pre>
 */
public final class SameParallelism {
    private SameParallelism() {}

    /** Gives {@code next} the parallelism of {@code upstream}, where that is set. */
    public static void as(Transformation<?> next, DataStream<?> upstream) {
        if (upstream.getParallelism() > 0) {
            next.setParallelism(upstream.getParallelism());
        }
    }
}
