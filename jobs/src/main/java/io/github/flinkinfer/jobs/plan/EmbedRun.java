package io.github.flinkinfer.jobs.plan;

import io.github.flinkinfer.jobs.spec.RunSpec;
import java.io.IOException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The run {@code embed} would make of some arguments, decided by the command line's own options
 * and handed to {@code plan} by {@code Main}, so {@code plan} sizes the real job graph without
 * naming the command line.
 *
 * <pre>{@code
 * new PlanCommand(RunOptions::embed);   // in Main's command factory
 * }</pre>
 */
@FunctionalInterface
public interface EmbedRun {
    /** The environment and the decided spec {@code embed args} would run with; nothing is submitted. */
    Decided decide(String... args) throws IOException;

    /** An environment and the spec decided on it. */
    record Decided(StreamExecutionEnvironment env, RunSpec spec) {}
}
