package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.metrics.CostModel;
import org.apache.flink.util.Preconditions;

/**
 * Builds a {@link BatchInferenceOperator}, checking the settings in one place; cost, quality gate
 * and overlap are optional. Start with {@link BatchInferenceOperator#builder}.
 */
public final class BatchInferenceOperatorBuilder {
    private final ModelRuntimeFactory factory;
    private final BatchingConfig batching;
    private final String runId;
    private CostModel cost = CostModel.FREE;
    private QualityGate qualityGate;
    private BatchInferenceOperator.Overlap overlap = BatchInferenceOperator.Overlap.AUTO;

    BatchInferenceOperatorBuilder(ModelRuntimeFactory factory, BatchingConfig batching, String runId) {
        this.factory = factory;
        this.batching = batching;
        this.runId = runId;
    }

    /** Prices busy time in each batch's metrics (default {@link CostModel#FREE}). */
    public BatchInferenceOperatorBuilder cost(CostModel cost) {
        this.cost = cost;
        return this;
    }

    /** Re-checks a sample against a reference model (see {@link QualityGate}); null = none. */
    public BatchInferenceOperatorBuilder qualityGate(QualityGate gate) {
        this.qualityGate = gate;
        return this;
    }

    /** Overlaps model calls with the task thread (see the class doc; default {@code AUTO}). */
    public BatchInferenceOperatorBuilder overlap(BatchInferenceOperator.Overlap overlap) {
        this.overlap = overlap;
        return this;
    }

    /** The operator; fails here, not on the cluster, when a setting is missing. */
    public BatchInferenceOperator build() {
        Preconditions.checkNotNull(factory, "model");
        Preconditions.checkNotNull(batching, "batching");
        Preconditions.checkNotNull(runId, "runId");
        Preconditions.checkNotNull(cost, "cost");
        Preconditions.checkNotNull(overlap, "overlap");
        Preconditions.checkArgument(qualityGate == null || qualityGate.samples() >= 0,
                "quality samples >= 0");
        return new BatchInferenceOperator(factory, batching, runId, cost, qualityGate, overlap);
    }
}
