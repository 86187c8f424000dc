package io.github.flinkinfer.jobs.options;

import io.github.flinkinfer.operators.metrics.CostModel;
import picocli.CommandLine.Option;

/** Prices for the cost report (docs/measurement.md, "Cost"). All default to 0: no cost shown. */
public class CostOptions {
    @Option(names = "--price-tm-hour", defaultValue = "0",
            description = "Price of one TaskManager per hour; split over --slots-per-tm."
                    + " Takes precedence over the per-resource prices.")
    public double pricePerTaskManagerHour;

    @Option(names = "--slots-per-tm", defaultValue = "1",
            description = "Task slots per TaskManager (to split --price-tm-hour). Default: ${DEFAULT-VALUE}.")
    public int slotsPerTaskManager;

    @Option(names = "--price-cpu-core-hour", defaultValue = "0",
            description = "Price of one CPU core per hour; a subtask is charged for its"
                    + " --intra-op-threads cores (at least 1).")
    public double pricePerCpuCoreHour;

    @Option(names = "--price-gpu-hour", defaultValue = "0",
            description = "Price of one GPU per hour, charged while a subtask runs on a GPU.")
    public double pricePerGpuHour;

    @Option(names = "--reference-price-per-1m-tokens", defaultValue = "0",
            description = "A hosted API's list price per 1M tokens, reported beside ours for comparison.")
    public double referencePricePer1MTokens;

    @Option(names = "--currency", defaultValue = "USD", description = "Currency label. Default: ${DEFAULT-VALUE}.")
    public String currency;

    /** A workload card's prices (docs/workload.md) as these options; what the card leaves out is 0. */
    public static CostOptions of(io.github.flinkinfer.jobs.workload.WorkloadCard.Prices prices) {
        CostOptions o = new CostOptions();
        o.pricePerTaskManagerHour = orZero(prices.tmHour());
        o.slotsPerTaskManager = prices.slotsPerTm() != null ? prices.slotsPerTm() : 1;
        o.pricePerCpuCoreHour = orZero(prices.cpuCoreHour());
        o.pricePerGpuHour = orZero(prices.gpuHour());
        o.referencePricePer1MTokens = 0;
        o.currency = prices.currencyOrDefault();
        return o;
    }

    private static double orZero(Double d) {
        return d != null ? d : 0;
    }

    public CostModel model(int intraOpThreads) {
        return new CostModel(pricePerTaskManagerHour, slotsPerTaskManager, pricePerCpuCoreHour,
                Math.max(1, intraOpThreads), pricePerGpuHour, referencePricePer1MTokens, currency);
    }
}
