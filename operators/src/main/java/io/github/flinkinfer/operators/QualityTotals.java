package io.github.flinkinfer.operators;

import java.util.HashMap;
import java.util.Map;

/**
 * The run's quality sample read back from its batch metrics rows: each row carries its batch's
 * change of the subtask's sample ({@code qualityChecked}, {@code qualitySum}), so the rows add
 * up; the minimum is not a change, so it is taken from each subtask's latest row (largest {@code
 * qualitySeen}). Rows written before the sample was a reservoir ({@code qualitySeen} 0) fall back
 * to the minimum over rows.
 *
 * @param metric {@code cosine} or {@code label_agreement}; null without a gate
 */
public record QualityTotals(String metric, long checked, double sum, double min) {

    public static QualityTotals of(Iterable<BatchMetrics> rows) {
        String metric = null;
        long checked = 0;
        double sum = 0;
        double minOverRows = 1.0;
        Map<Integer, BatchMetrics> latest = new HashMap<>();
        for (BatchMetrics m : rows) {
            if (m.qualityMetric == null) {
                continue;
            }
            metric = m.qualityMetric;
            checked += m.qualityChecked;
            sum += m.qualitySum;
            if (m.qualitySeen == 0) {
                if (m.qualityChecked > 0) {
                    minOverRows = Math.min(minOverRows, m.qualityMin);
                }
            } else {
                latest.merge(m.subtask, m, (a, b) -> b.qualitySeen > a.qualitySeen ? b : a);
            }
        }
        double min = minOverRows;
        for (BatchMetrics m : latest.values()) {
            min = Math.min(min, m.qualityMin);
        }
        return new QualityTotals(metric, checked, sum, min);
    }

    public double mean() {
        return checked == 0 ? 0 : sum / checked;
    }
}
