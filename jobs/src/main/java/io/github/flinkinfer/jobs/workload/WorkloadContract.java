package io.github.flinkinfer.jobs.workload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A card's clauses and its plan's forecast, as a run records them in its run-info ({@code
 * workload}), so that the verdicts can be judged again from the output alone ({@code report}).
 */
public record WorkloadContract(
        String card,
        String name,
        /** The model the plan chose (the run's own model is in the run-info's settings). */
        String plannedModel,
        Deadline deadline,
        Double budget,
        String currency,
        Double minCosine,
        Double meanCosine,
        Double labelAgreement,
        Long latencyMaxItemMs,
        WorkloadPlan.Forecast forecast) {

    static WorkloadContract of(String location, WorkloadCard c, WorkloadPlan p) {
        WorkloadCard.Quality q = c.qualityOrEmpty();
        return new WorkloadContract(location, c.name(), p.chosen(), c.deadline(), c.budget(),
                c.pricesOrEmpty().currencyOrDefault(), q.minCosine(), q.meanCosine(), q.labelAgreement(),
                c.latency() == null ? null : c.latency().maxItemMs(), p.forecast());
    }

    /** Whether the card sets any quality floor. */
    public boolean hasQualityFloor() {
        return minCosine != null || meanCosine != null || labelAgreement != null;
    }

    /** The contract a run-info records, or null when the run had no card. */
    public static WorkloadContract fromRunInfo(JsonNode runInfo) {
        JsonNode node = runInfo == null ? null : runInfo.get("workload");
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .treeToValue(node, WorkloadContract.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("run-info's workload section cannot be read: " + e.getOriginalMessage(), e);
        }
    }
}
