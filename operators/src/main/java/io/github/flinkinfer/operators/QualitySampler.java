package io.github.flinkinfer.operators;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.ModelTask;

/**
 * One subtask's share of the {@link QualityGate} sample: re-runs the first successful items of
 * each batch through the reference model until the share is used up and writes the scores into
 * the batch's {@link BatchMetrics}. Without a gate it does nothing.
 */
final class QualitySampler implements AutoCloseable {
    private final ModelRuntime reference;
    private int left;

    private QualitySampler(ModelRuntime reference, int left) {
        this.reference = reference;
        this.left = left;
    }

    /** Opens the gate's reference on {@code device}; the sample is split exactly over subtasks. */
    static QualitySampler open(QualityGate gate, Device device, int subtask, int parallelism) {
        if (gate == null) {
            return new QualitySampler(null, 0);
        }
        int total = gate.samples();
        int share = total / parallelism + (subtask < total % parallelism ? 1 : 0);
        return new QualitySampler(gate.reference().open(device), share);
    }

    /** Re-runs this batch's first items through the reference while the share lasts. */
    void check(BisectingRunner.Outcome outcome, BatchMetrics m) {
        if (reference == null || left <= 0) {
            return;
        }
        m.qualityMin = 1.0;
        for (int i = 0; i < outcome.succeeded.size() && left > 0; i++, left--) {
            double score = QualityGate.compare(reference, outcome.succeeded.get(i).tokenIds, outcome.vectors.get(i));
            m.qualityChecked++;
            m.qualitySum += score;
            m.qualityMin = Math.min(m.qualityMin, score);
        }
        m.qualityMetric = reference.card().task == ModelTask.CLASSIFICATION ? "label_agreement" : "cosine";
    }

    @Override
    public void close() {
        if (reference != null) {
            reference.close();
        }
    }
}
