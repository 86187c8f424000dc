package io.github.flinkinfer.operators.run;

import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import io.github.flinkinfer.operators.metrics.QualitySample;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.List;

/**
 * One subtask's share of the {@link QualityGate} sample, uniform over all the subtask's successful
 * items (a {@link QualitySample} reservoir): an item is re-run through the reference model when
 * it is admitted to the reservoir, and an evicted item's score leaves the aggregate. Each batch's
 * {@link BatchMetrics} carries what the batch changed, so the rows of a subtask add up to its
 * sample; without a gate it does nothing.
 */
final class QualitySampler implements AutoCloseable {
    private final ModelRuntime reference;
    private final QualitySample sample;

    private QualitySampler(ModelRuntime reference, QualitySample sample) {
        this.reference = reference;
        this.sample = sample;
    }

    /**
     * Opens the gate's reference on {@code device}; the sample size is split exactly over
     * subtasks. {@code restored} are samples from a checkpoint, merged into this subtask's.
     */
    static QualitySampler open(QualityGate gate, Device device, int subtask, int parallelism,
            List<QualitySample> restored) {
        if (gate == null) {
            return new QualitySampler(null, QualitySample.empty(0, 0));
        }
        int total = gate.samples();
        int share = total / parallelism + (subtask < total % parallelism ? 1 : 0);
        // restored: the checkpointed sample(s) as they were (after rescaling, the old subtasks'
        // samples are merged where they land, so the run's total size stays)
        QualitySample sample = restored.isEmpty() ? QualitySample.empty(gate.seed(), share) : restored.get(0);
        for (QualitySample s : restored.subList(Math.min(1, restored.size()), restored.size())) {
            sample = sample.merge(s);
        }
        return new QualitySampler(NonRecoverableLoadException.guard(() -> gate.reference().open(device)), sample);
    }

    /**
     * Offers this batch's successful items to the reservoir and re-runs the admitted ones; writes
     * into {@code m} the batch's net change of the sample (checked, sum), the sample's minimum
     * after it, the items offered so far, the reference runs it took and the seed.
     */
    void check(BisectingRunner.Outcome outcome, BatchMetrics m) {
        if (reference == null) {
            return;
        }
        int before = sample.checked();
        double sumBefore = sample.sum();
        for (int i = 0; i < outcome.succeeded.size(); i++) {
            TokenizedDocument d = outcome.succeeded.get(i);
            long priority = sample.priority(d.id);
            if (sample.offer(priority)) {
                sample.admit(priority, QualityGate.compare(reference, d.tokenIds, outcome.vectors.get(i)));
                m.qualityReferenceRuns++;
            }
        }
        m.qualityChecked = sample.checked() - before;
        m.qualitySum = sample.sum() - sumBefore;
        m.qualityMin = sample.min();
        m.qualitySeen = sample.seen;
        m.qualitySeed = sample.seed;
        m.qualityMetric = reference.card().task == ModelTask.CLASSIFICATION ? "label_agreement" : "cosine";
    }

    /** This subtask's sample so far (for operator state and the run's merged aggregate). */
    QualitySample sample() {
        return sample;
    }

    @Override
    public void close() {
        if (reference != null) {
            reference.close();
        }
    }
}
