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
        /** The variant {@link #forecast} is for: the run's model when the plan measured it. */
        String forecastModel,
        WorkloadPlan.Forecast forecast) {

    /**
     * The contract of a run of {@code runModel}: the plan's forecast, or — when an explicit
     * {@code --model} chose another variant the plan measured — that variant's forecast.
     */
    static WorkloadContract of(String location, WorkloadCard c, WorkloadPlan p, String runModel) {
        WorkloadCard.Quality q = c.qualityOrEmpty();
        String forecastModel = p.settings() != null ? p.settings().model() : p.chosen();
        WorkloadPlan.Forecast forecast = p.forecast();
        if (runModel != null && !runModel.equalsIgnoreCase(forecastModel) && p.variants() != null) {
            for (WorkloadPlan.VariantEstimate v : p.variants()) {
                if (v.model().equalsIgnoreCase(runModel) && v.forecast() != null) {
                    forecastModel = v.model();
                    forecast = v.forecast();
                }
            }
        }
        return new WorkloadContract(location, c.name(), p.chosen(), c.deadline(), c.budget(),
                c.pricesOrEmpty().currencyOrDefault(), q.minCosine(), q.meanCosine(), q.labelAgreement(),
                c.latency() == null ? null : c.latency().maxItemMs(), forecastModel, forecast);
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
