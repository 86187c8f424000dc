package io.github.flinkinfer.operators.metrics;

/**
 * One record per batch, written as its own output. Timers (all wall-clock, per subtask):
 * <ul>
 *   <li>{@code queueWaitMs}: from the oldest item entering the batcher to the batch starting;
 *   <li>{@code tokenizeMs}: sum of the items' tokenize times (upstream, before batching);
 *   <li>{@code tensorMs}: building the padded input tensors;
 *   <li>{@code inferenceMs}: the ONNX Runtime {@code run} call(s), retries included;
 *   <li>{@code postprocessMs}: pooling and normalization;
 *   <li>{@code writeMs}: handing results downstream (chained sinks write inside this);
 *   <li>{@code totalMs}: batch start to last result handed on (tensor + inference + post +
 *       write + bookkeeping).
 * </ul>
 * See docs/measurement.md for the full protocol.
 */
public class BatchMetrics {
    public String batchId;
    public String runId;
    public int subtask;
    public int bucket;
    public int bucketEdge;
    public int items;
    public int failedItems;
    public long realTokens;
    public long paddedTokens;
    public double paddingEfficiency;
    public double queueWaitMs;
    public double tokenizeMs;
    public double tensorMs;
    public double inferenceMs;
    public double postprocessMs;
    public double writeMs;
    public double totalMs;
    public double itemsPerSecond;
    public double realTokensPerSecond;
    /** Extra model runs caused by bisecting failures or splitting on out-of-memory. */
    public int retries;
    public int attempt;
    /** Epoch millis at which the batch started (for throughput over time). */
    public long startedAtMillis;
    public String model;
    /** The device the session really ran on (after any {@code auto} fallback). */
    public String device;
    /** The device this subtask asked for (after GPU placement from external resources). */
    public String deviceRequested;

    /** Parallelism of the inference operator. */
    public int subtasks;
    /** Epoch millis when this subtask opened (model load starts). */
    public long subtaskOpenedAtMillis;
    /**
     * Epoch millis at which this subtask's first input arrived, on the first batch that follows it
     * only (0 on the others): from opening to here it waited for input (the read, keep-first's id
     * pass), from here to its first batch it filled one.
     */
    public long firstInputAtMillis;
    /** Model load time, on the subtask's first batch only (0 on the others). */
    public long modelLoadMs;
    /**
     * Of {@code modelLoadMs} (unless {@code sessionPrepared}): reading the model bytes and checking
     * their sha256 (first batch only).
     */
    public long modelReadMs;
    /** Of {@code modelLoadMs}: ONNX Runtime session creation, graph optimization included. */
    public long sessionCreateMs;
    /** Of {@code modelLoadMs}: the warm-up batch. */
    public long warmUpMs;
    /**
     * What the optimized-graph cache did for this subtask's session: off, hit or miss; shared when
     * the subtask reused a session another subtask of its TaskManager loaded.
     */
    public String graphCache;
    /**
     * The subtask took a session the driver of an embedded run created ahead, while the cluster
     * started: {@code modelReadMs} and {@code sessionCreateMs} were spent then, before the subtask
     * opened, and are not part of its {@code modelLoadMs} (first batch only).
     */
    public boolean sessionPrepared;
    /**
     * The tokenizer's load in this subtask (read, sha256, parse), on the first batch only; 0 when
     * the tokenizer ran in another JVM. Not part of {@code modelLoadMs}.
     */
    public long tokenizerLoadMs;
    /**
     * The TaskManager process's CPU time when this batch's results were handed on (ms, all its
     * threads; -1 unknown), the process ({@code pid@host}) and its cores: the bound line's
     * TaskManager CPU load (docs/measurement.md).
     */
    public long processCpuMs = -1;
    public String process;
    public int processCores;
    /** Price of this subtask per hour under the run's cost model. */
    public double subtaskPricePerHour;
    /** This batch's busy cost: {@code totalMs} × the subtask's price. */
    public double costBusy;
    public double referencePricePer1MTokens;
    public String currency;

    /**
     * Quality gate (docs/measurement.md): how this batch changed the subtask's sample, a uniform
     * reservoir over its items ({@link QualitySample}): items added minus items evicted, so a
     * subtask's rows add up to its sample size (0 without a gate).
     */
    public int qualityChecked;
    /** {@code cosine} (embeddings) or {@code label_agreement} (classifiers); null without a gate. */
    public String qualityMetric;
    /** This batch's change of the sum of the sample's per-item cosine / agreement. */
    public double qualitySum;
    /**
     * The minimum over the subtask's sample after this batch (not subtractable, so not a change):
     * the subtask's row with the largest {@code qualitySeen} holds its final minimum.
     */
    public double qualityMin;
    /** Successful items of the subtask offered to the sample so far, this batch's included. */
    public long qualitySeen;
    /** Items of this batch re-run through the reference (admitted to the sample): the gate's cost. */
    public int qualityReferenceRuns;
    /** The seed of the sample's priorities (the same seed and corpus sample the same items). */
    public long qualitySeed;

    public BatchMetrics() {}
}
