package io.github.flinkinfer.operators.metrics;

import java.io.Serializable;

/**
 * What one inference subtask costs per hour, from configured prices: either a TaskManager-hour
 * price split over its slots, or CPU-core-hours for the threads a subtask uses plus a GPU-hour
 * when it runs on a GPU. Users pay for the whole machine, so reports charge busy time, model
 * load and idle time alike and show them apart.
 *
 * @param pricePerTaskManagerHour price of one TaskManager per hour (0 = use the per-resource prices)
 * @param slotsPerTaskManager slots sharing that price
 * @param pricePerCpuCoreHour price of one CPU core per hour
 * @param cpuCoresPerSubtask cores one inference subtask occupies (its ORT threads)
 * @param pricePerGpuHour price of one GPU per hour, charged when the subtask runs on a GPU
 * @param referencePricePer1MTokens a hosted API's list price per 1M tokens, for comparison (0 = none)
 * @param currency label for reports
 */
public record CostModel(
        double pricePerTaskManagerHour,
        int slotsPerTaskManager,
        double pricePerCpuCoreHour,
        double cpuCoresPerSubtask,
        double pricePerGpuHour,
        double referencePricePer1MTokens,
        String currency)
        implements Serializable {

    /** No prices configured: costs report as 0. */
    public static final CostModel FREE = new CostModel(0, 1, 0, 1, 0, 0, "USD");

    public CostModel {
        if (pricePerTaskManagerHour < 0 || pricePerCpuCoreHour < 0 || pricePerGpuHour < 0
                || referencePricePer1MTokens < 0) {
            throw new IllegalArgumentException("prices must be >= 0");
        }
        if (slotsPerTaskManager < 1 || cpuCoresPerSubtask <= 0) {
            throw new IllegalArgumentException("slots per TaskManager >= 1, cores per subtask > 0");
        }
    }

    /** Price of one inference subtask per hour on the given device kind. */
    public double subtaskPricePerHour(boolean onGpu) {
        if (pricePerTaskManagerHour > 0) {
            return pricePerTaskManagerHour / slotsPerTaskManager;
        }
        return pricePerCpuCoreHour * cpuCoresPerSubtask + (onGpu ? pricePerGpuHour : 0);
    }

    /** Cost of {@code millis} of one subtask's time. */
    public double cost(double millis, boolean onGpu) {
        return subtaskPricePerHour(onGpu) * millis / 3_600_000.0;
    }
}
