package io.github.flinkinfer.jobs.run;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink settings the jobs default to, applied only where the cluster configuration
 * ({@code config.yaml}) and {@code -D} leave an option unset, so an operator's configuration
 * always wins. An explicit job option ({@code --runtime-mode}, {@code --restart-attempts}) is
 * the user's word for this run and wins over both. The defaults (docs/operations.md):
 * <ul>
 *   <li>{@code execution.runtime-mode}: BATCH;</li>
 *   <li>{@code restart-strategy.type}: fixed-delay, 5 attempts, 1 s apart (without
 *       checkpointing Flink's own default is no restart at all);</li>
 *   <li>{@code execution.batch.adaptive.auto-parallelism.enabled}: false (one model session per
 *       inference slot is a sizing decision, not something to infer from bytes read);</li>
 *   <li>{@code execution.attached}: true (so in application mode the driver waits for the job
 *       and judges it; {@code flink run --detached} sets it false explicitly and keeps that);</li>
 *   <li>{@code pipeline.generic-types}: false (every record type is a POJO or Avro: fail fast
 *       if anything would fall back to Kryo);</li>
 *   <li>{@code pipeline.object-reuse}: true (chained operators hand each record on instead of a
 *       serializer's copy of it: every operator of the job makes a new record for each output
 *       and changes no record it receives, so a copy buys nothing. The copies were 16.5% of
 *       the inference chain's JFR samples: docs/benchmarks/object-reuse-2026-12-06.md);</li>
 *   <li>{@code s3.directory.marker.retention}: keep, where this JVM owns the file systems (the
 *       embedded cluster: {@link #fileSystemDefaults}).</li>
 * </ul>
 */
public final class FlinkDefaults {
    public static final int RESTART_ATTEMPTS = 5;
    public static final Duration RESTART_DELAY = Duration.ofSeconds(1);
    /** S3A's directory-marker policy, as Flink's S3 file system reads it ({@code s3.} = {@code fs.s3a.}). */
    public static final String S3_MARKER_RETENTION = "s3.directory.marker.retention";

    private FlinkDefaults() {}

    /**
     * The execution environment of a run: the one {@code flink run} or the application cluster
     * provides (with its configuration), else an embedded cluster ({@link EmbeddedEnvironment},
     * which the run can start early) configured from {@code $FLINK_CONF_DIR} when set; then the
     * run's own {@code -D} {@code options} over that; plus our defaults where those leave options
     * unset; {@code runtimeMode} and {@code restartAttempts} are the job's explicit options (null =
     * not given), which win over all.
     */
    public static StreamExecutionEnvironment environment(RuntimeExecutionMode runtimeMode, Integer restartAttempts,
            Map<String, String> options) {
        StreamExecutionEnvironment probe = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration dynamic = Configuration.fromMap(options);
        Configuration base = probe instanceof LocalStreamEnvironment ? initializeFileSystems(dynamic) : dynamic;
        Configuration effective = new Configuration(base);
        effective.addAll(Configuration.fromMap(probe.getConfiguration().toMap()));
        Configuration conf = new Configuration(base);
        conf.addAll(defaults(effective, runtimeMode, restartAttempts));
        return probe instanceof LocalStreamEnvironment
                ? EmbeddedEnvironment.create(conf)
                : StreamExecutionEnvironment.getExecutionEnvironment(conf);
    }

    /**
     * For a JVM that is not a Flink process (the embedded cluster's driver, {@code report}): reads
     * the same config.yaml a cluster would ({@code $FLINK_CONF_DIR}) and gives this JVM's file
     * systems its settings and plugins ({@code $FLINK_PLUGINS_DIR}: s3.endpoint, credentials
     * providers) and our file-system defaults ({@link #fileSystemDefaults}); returns that
     * configuration (empty when neither is set).
     */
    public static Configuration initializeFileSystems() {
        return initializeFileSystems(new Configuration());
    }

    /**
     * {@link #initializeFileSystems()} with {@code dynamic} ({@code -D}) over config.yaml; returns
     * {@code dynamic} alone where neither {@code $FLINK_CONF_DIR} nor {@code $FLINK_PLUGINS_DIR} is set.
     */
    static Configuration initializeFileSystems(Configuration dynamic) {
        if (System.getenv("FLINK_CONF_DIR") == null && System.getenv("FLINK_PLUGINS_DIR") == null) {
            return new Configuration(dynamic);
        }
        Configuration user = System.getenv("FLINK_CONF_DIR") != null
                ? GlobalConfiguration.loadConfiguration() : new Configuration();
        user.addAll(dynamic);
        Configuration base = fileSystemDefaults(user);
        FileSystem.initialize(base, PluginUtils.createPluginManagerFromRootFolder(base));
        return base;
    }

    /**
     * {@code user} plus {@value #S3_MARKER_RETENTION}: {@code keep} where it sets neither that
     * key nor its {@code fs.s3a.} form, for the file systems this JVM owns (the embedded cluster,
     * {@code report}). Hadoop 3.3's S3A deletes the parent directory markers after every object
     * it writes, one bulk delete per file, which an S3-compatible store answered in about 10 s
     * (a 600-document run took 175 s, 30 s with {@code keep}); {@code keep} is what Hadoop 3.5
     * always does, and only S3A clients older than Hadoop 3.2.2/3.3.1 misread kept markers.
     */
    public static Configuration fileSystemDefaults(Configuration user) {
        Configuration conf = new Configuration(user);
        if (!user.containsKey(S3_MARKER_RETENTION) && !user.containsKey("fs.s3a.directory.marker.retention")) {
            conf.setString(S3_MARKER_RETENTION, "keep");
        }
        return conf;
    }

    /** Our settings for the options {@code cluster} leaves unset, and the explicit job options. */
    public static Configuration defaults(ReadableConfig cluster, RuntimeExecutionMode runtimeMode,
            Integer restartAttempts) {
        Configuration conf = new Configuration();
        if (runtimeMode != null) {
            conf.set(ExecutionOptions.RUNTIME_MODE, runtimeMode);
        } else if (!isSet(cluster, ExecutionOptions.RUNTIME_MODE)) {
            conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        }
        if (restartAttempts != null || !isSet(cluster, RestartStrategyOptions.RESTART_STRATEGY)) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                    restartAttempts != null ? restartAttempts : RESTART_ATTEMPTS);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, RESTART_DELAY);
        }
        if (!isSet(cluster, BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED)) {
            conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        }
        if (!isSet(cluster, DeploymentOptions.ATTACHED)) {
            // application mode is detached unless told otherwise: the driver in the JobManager
            // would return before the job ends and skip the report, verdicts and _SUCCESS
            conf.set(DeploymentOptions.ATTACHED, true);
        }
        if (!isSet(cluster, PipelineOptions.GENERIC_TYPES)) {
            conf.set(PipelineOptions.GENERIC_TYPES, false);
        }
        if (!isSet(cluster, PipelineOptions.OBJECT_REUSE)) {
            conf.set(PipelineOptions.OBJECT_REUSE, true);
        }
        return conf;
    }

    private static boolean isSet(ReadableConfig config, ConfigOption<?> option) {
        return config.getOptional(option).isPresent();
    }
}
