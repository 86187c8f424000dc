package io.github.flinkinfer.jobs.run;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.flink.client.deployment.executors.LocalExecutor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.MathUtils;

/**
 * The environment of a run on the embedded Flink cluster ({@code java -jar}, {@code mvn -Prun}):
 * Flink's own local executor and per-job MiniCluster, except that the cluster can be started on a
 * background thread as soon as the run knows its parallelism ({@link #prestart}), so it comes up
 * while the driver still validates, verifies the model and builds the job rather than after
 * submission. Submission then takes that cluster if it has the slots the job asks for, and
 * otherwise shuts it down and lets Flink start one as usual. Either way the cluster is the job's
 * and stops with it, as with {@code StreamExecutionEnvironment.createLocalEnvironment}.
 *
 * <pre>{@code
 * EmbeddedEnvironment env = EmbeddedEnvironment.create(conf);
 * env.prestart(2); // returns at once
 * // ... validate, build the job ...
 * env.execute("job"); // on the cluster started above, shut down when the job ends
 * }</pre>
 */
public final class EmbeddedEnvironment extends StreamExecutionEnvironment {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EmbeddedEnvironment.class);

    private final Clusters clusters;

    /** When the early cluster started and became ready (epoch millis; ready ≤ 0 while starting). */
    public record ClusterStart(long startedAtMillis, long readyAtMillis, boolean taken) {
        public double seconds() {
            return readyAtMillis > 0 ? (readyAtMillis - startedAtMillis) / 1000.0 : 0;
        }
    }

    private EmbeddedEnvironment(Clusters clusters, Configuration configuration) {
        super(clusters, configuration, null);
        this.clusters = clusters;
    }

    /**
     * Whether this JVM made an embedded environment: it is then the run's own process (the
     * launcher's, {@code java -jar}), not one Flink owns, and may exit when the run is done. A
     * class of its own, so asking (after {@code --help}, say) loads no Flink class.
     */
    public static final class InThisJvm {
        private static volatile boolean created;
        /** The cluster last handed to a job, to be waited for at exit. */
        private static volatile MiniCluster taken;

        private InThisJvm() {}

        public static boolean created() {
            return created;
        }

        /**
         * Waits up to {@code timeout} for the cluster of this JVM's last job to shut down (Flink
         * closes it when the job ends, asynchronously). Exiting the JVM in the middle of that
         * shutdown lets the RPC system's JVM hook run after its class loader was closed, which
         * prints a {@code NoClassDefFoundError}; a cluster that takes longer is left to the exit.
         */
        public static void awaitClusterShutdown(java.time.Duration timeout) {
            MiniCluster cluster = taken;
            if (cluster == null) {
                return;
            }
            try {
                cluster.closeAsync().get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                LOG.debug("The embedded cluster did not shut down cleanly in {}", timeout, e);
            }
        }
    }

    /** A local environment as {@code createLocalEnvironment(configuration)} makes one. */
    public static EmbeddedEnvironment create(Configuration configuration) {
        InThisJvm.created = true;
        Configuration c = new Configuration(configuration);
        if (!c.contains(CoreOptions.DEFAULT_PARALLELISM)) {
            c.set(CoreOptions.DEFAULT_PARALLELISM, getDefaultLocalParallelism());
        }
        c.set(DeploymentOptions.TARGET, "local");
        c.set(DeploymentOptions.ATTACHED, true);
        return new EmbeddedEnvironment(new Clusters(), c);
    }

    /**
     * Starts the cluster for a job of {@code parallelism} (its widest operator) now, from this
     * environment's configuration; a second call while one is waiting does nothing.
     */
    public void prestart(int parallelism) {
        Configuration c = Configuration.fromMap(getConfiguration().toMap());
        long network = TaskManagerNetwork.configured(c) ? 0
                : Math.min(Runtime.getRuntime().maxMemory() / 2, // an estimate: never most of the JVM's direct memory
                        TaskManagerNetwork.estimatedBytes(c, parallelism));
        clusters.prestart(clusterConfiguration(c, parallelism, network));
    }

    /**
     * Submits {@code streamGraph} on a cluster whose network memory fits its exchanges ({@link
     * NetworkMemorySizing}), unless the configuration sets it ({@code -D}, config.yaml).
     */
    @Override
    public org.apache.flink.core.execution.JobClient executeAsync(org.apache.flink.streaming.api.graph.StreamGraph streamGraph)
            throws Exception {
        if (TaskManagerNetwork.configured(getConfiguration())) {
            clusters.expectNetworkBytes(0);
            return super.executeAsync(streamGraph);
        }
        TaskManagerNetwork.Need need;
        try {
            need = TaskManagerNetwork.of(TaskManagerNetwork.embeddedSizing(getConfiguration()), streamGraph,
                    getParallelism());
        } catch (RuntimeException e) { // a graph Flink can only settle at submission: the early estimate stands
            LOG.debug("Network memory not sized from the job graph", e);
            clusters.expectNetworkBytes(0);
            return super.executeAsync(streamGraph);
        }
        int taskManagers = getConfiguration().get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS);
        int slots = getConfiguration().getOptional(TaskManagerOptions.NUM_TASK_SLOTS)
                .orElse(MathUtils.divideRoundUp(need.widest(), taskManagers));
        long bytes = need.bytesPerTaskManager(slots);
        LOG.info("{} exchanges, {} slots per TaskManager: {} of network memory per TaskManager ({} per slot)",
                need.exchanges().size(), slots, new org.apache.flink.configuration.MemorySize(bytes),
                new org.apache.flink.configuration.MemorySize(need.bytesPerSlot()));
        if (TaskManagerNetwork.embeddedBytes(bytes) > Runtime.getRuntime().maxMemory() / 2) {
            // network buffers are direct memory of this JVM, whose limit defaults to its heap's
            LOG.warn("The job's exchanges need {} of network memory, more than half this JVM's {}: raise -Xmx"
                    + " (or -XX:MaxDirectMemorySize) or lower --parallelism",
                    new org.apache.flink.configuration.MemorySize(bytes),
                    new org.apache.flink.configuration.MemorySize(Runtime.getRuntime().maxMemory()));
        }
        clusters.expectNetworkBytes(bytes);
        return super.executeAsync(streamGraph);
    }

    /** The early cluster's start, or null when none was started. */
    public ClusterStart clusterStart() {
        return clusters.lastStart();
    }

    /** Shuts down an early cluster no job took (a run that failed before submission). */
    public void discardUnusedCluster() {
        clusters.discard();
    }

    @Override
    public void close() throws Exception {
        discardUnusedCluster();
        super.close();
    }

    /**
     * The cluster Flink's per-job factory would start for a job whose widest operator has {@code
     * parallelism} subtasks: the configured TaskManagers and slots, else enough slots for it.
     */
    static MiniClusterConfiguration clusterConfiguration(Configuration configuration, int parallelism,
            long networkBytes) {
        Configuration c = TaskManagerNetwork.forEmbeddedCluster(configuration,
                TaskManagerNetwork.configured(configuration) ? 0 : networkBytes);
        if (!c.contains(RestOptions.BIND_PORT)) {
            c.set(RestOptions.BIND_PORT, "0");
        }
        if (!c.contains(SecurityOptions.DELEGATION_TOKENS_ENABLED)) {
            // one JVM ships no tokens to other processes, and its file systems use this JVM's own
            // login; Flink's token manager would load Hadoop's security classes and ask every
            // provider at each start (0.15-0.25 s of the cluster's start on 2 cores)
            c.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);
        }
        int taskManagers = c.get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS);
        int slots = c.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElseGet(() -> parallelism > 0
                ? MathUtils.divideRoundUp(parallelism, taskManagers)
                : TaskManagerOptions.NUM_TASK_SLOTS.defaultValue());
        return new MiniClusterConfiguration.Builder()
                .setConfiguration(c)
                .setNumTaskManagers(taskManagers)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .setNumSlotsPerTaskManager(slots)
                .build();
    }

    private static int slots(MiniClusterConfiguration c) {
        return c.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS);
    }

    /** The executor loader of this environment: Flink's local executor on our clusters. */
    private static final class Clusters implements PipelineExecutorServiceLoader, PipelineExecutorFactory {
        private EarlyCluster early; // guarded by this: started, not taken yet
        private EarlyCluster last; // guarded by this: the one taken or discarded
        private boolean lastTaken; // guarded by this
        private long networkBytes; // guarded by this: what the job being submitted needs

        synchronized void expectNetworkBytes(long bytes) {
            networkBytes = bytes;
        }

        synchronized void prestart(MiniClusterConfiguration configuration) {
            if (early == null) {
                early = new EarlyCluster(configuration);
                early.startInBackground();
            }
        }

        synchronized ClusterStart lastStart() {
            return early != null ? early.start(false) : last != null ? last.start(lastTaken) : null;
        }

        synchronized void discard() {
            if (early != null) {
                settle(false).shutDownWhenStarted();
            }
        }

        /** The cluster for a job: the early one if it fits, else a new one (Flink starts it). */
        synchronized MiniCluster clusterFor(MiniClusterConfiguration flinks) {
            MiniClusterConfiguration wanted = new MiniClusterConfiguration.Builder()
                    .setConfiguration(TaskManagerNetwork.forEmbeddedCluster(flinks.getConfiguration(), networkBytes))
                    .setNumTaskManagers(flinks.getNumTaskManagers())
                    .setRpcServiceSharing(flinks.getRpcServiceSharing())
                    .setNumSlotsPerTaskManager(slots(flinks))
                    .build();
            MiniCluster cluster = pick(wanted);
            InThisJvm.taken = cluster;
            return cluster;
        }

        private MiniCluster pick(MiniClusterConfiguration wanted) {
            if (early != null && early.fits(wanted)) {
                return settle(true);
            }
            if (early != null) {
                LOG.info("The job needs {} slot(s) on {} TaskManager(s) with {} of network memory, the early"
                        + " cluster has {} on {} with {}: starting another", slots(wanted),
                        wanted.getNumTaskManagers(), TaskManagerNetwork.embedded(wanted.getConfiguration()),
                        early.slots, early.taskManagers, early.network);
                settle(false).shutDownWhenStarted();
            }
            return new MiniCluster(wanted);
        }

        private EarlyCluster settle(boolean taken) {
            last = early;
            lastTaken = taken;
            early = null;
            return last;
        }

        @Override
        public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
            return this;
        }

        @Override
        public Stream<String> getExecutorNames() {
            return Stream.of(LocalExecutor.NAME);
        }

        @Override
        public String getName() {
            return LocalExecutor.NAME;
        }

        @Override
        public boolean isCompatibleWith(Configuration configuration) {
            return LocalExecutor.NAME.equalsIgnoreCase(configuration.get(DeploymentOptions.TARGET));
        }

        @Override
        public PipelineExecutor getExecutor(Configuration configuration) {
            return LocalExecutor.createWithFactory(configuration, this::clusterFor);
        }
    }

    /** A MiniCluster started on its own thread; {@link #start()} waits for that start. */
    private static final class EarlyCluster extends MiniCluster {
        private final CompletableFuture<Void> started = new CompletableFuture<>();
        private final int taskManagers;
        private final int slots;
        private final org.apache.flink.configuration.MemorySize network;
        private final long startedAtMillis = System.currentTimeMillis();
        private volatile long readyAtMillis;

        EarlyCluster(MiniClusterConfiguration configuration) {
            super(configuration);
            this.taskManagers = configuration.getNumTaskManagers();
            this.slots = slots(configuration);
            this.network = TaskManagerNetwork.embedded(configuration.getConfiguration());
        }

        void startInBackground() {
            Thread t = new Thread(() -> {
                try {
                    super.start();
                    readyAtMillis = System.currentTimeMillis();
                    started.complete(null);
                } catch (Throwable e) {
                    started.completeExceptionally(e);
                }
            }, "embedded-cluster-start");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void start() throws Exception {
            try {
                started.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }

        /**
         * Same TaskManagers and slots, and at least the network memory wanted; a job that asks for
         * none (its graph could not be sized before submission) takes the early estimate as it is,
         * which may be below Flink's 64 MiB default ({@link TaskManagerNetwork#EMBEDDED_FLOOR_BYTES}).
         */
        boolean fits(MiniClusterConfiguration wanted) {
            Configuration c = wanted.getConfiguration();
            return wanted.getNumTaskManagers() == taskManagers && slots(wanted) == slots
                    && (!TaskManagerNetwork.configured(c) || TaskManagerNetwork.embedded(c).compareTo(network) <= 0);
        }

        ClusterStart start(boolean taken) {
            return new ClusterStart(startedAtMillis, readyAtMillis, taken);
        }

        void shutDownWhenStarted() {
            started.whenComplete((ok, failed) -> closeAsync());
        }
    }
}
