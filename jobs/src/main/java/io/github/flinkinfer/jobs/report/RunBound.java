package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.operators.ledger.RunLedger;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What bounds a run, from its ledger's phase totals alone: how busy the device was and which host
 * stage kept it waiting, e.g. {@code device busy 38%: host-bound (tokenize)}. Loads are shares of
 * the batch window (the first batch's start to the last batch's end, all subtasks) per thread
 * that runs the stage; the rule is in docs/measurement.md, "What bounds a run".
 *
 * @param windowMs first batch start to last batch end, job-wide
 * @param devices engines the inference ran on: distinct CUDA devices, else one per subtask (CPU)
 * @param deviceBusy Σ model run time ÷ (window × devices), at most 1
 * @param hostLoads tokenize (÷ its subtasks), tensor, postprocess, write (÷ inference subtasks)
 * @param tokenizeChained whether tokenize ran in the inference subtasks' thread
 * @param hostBusy Σ host phases (tokenize, tensor, postprocess, write) ÷ (window × host threads:
 *     inference subtasks, plus tokenize subtasks when they are their own)
 * @param threadBusy chained only: Σ (tokenize + tensor + inference + post + write) ÷ (window ×
 *     inference subtasks); 0 otherwise
 * @param bound {@code device-bound}, {@code host-bound (<stage>)} or {@code upstream-bound}
 */
public record RunBound(double windowMs, int devices, double deviceBusy, Map<String, Double> hostLoads,
        double hostBusy, boolean tokenizeChained, double threadBusy, String bound) {
    /** Device busy at or above this: the device is what bounds the run. */
    public static final double DEVICE_BOUND = 0.8;
    /**
     * A host stage at or above this load, the host threads together at or above it, or a chained
     * thread at {@link #DEVICE_BOUND}: the host bounds the run. Low, because stages that share
     * cores each look little loaded: on the 2-core development machine a tokenize subtask that
     * limited the simulated device showed 33–56% (docs/benchmarks/device-sim.md).
     */
    public static final double HOST_BOUND = 0.25;

    /** The bound of a run whose tokenize ran at {@code tokenizeParallelism} subtasks (0 = chained). */
    public static RunBound of(RunLedger l, int tokenizeParallelism) {
        long first = l.subtasks.values().stream().filter(x -> x.batches > 0).mapToLong(x -> x.firstBatchAt)
                .min().orElse(0);
        long last = l.subtasks.values().stream().mapToLong(x -> x.lastBatchEnd).max().orElse(first);
        double window = Math.max(1, last - first);
        int inference = Math.max(1, Math.max(l.inferenceSubtasks, l.subtasks.size()));
        Set<String> gpus = new TreeSet<>();
        l.subtasks.values().forEach(x -> {
            if (x.device != null && x.device.startsWith("cuda")) {
                gpus.add(x.device);
            }
        });
        int devices = gpus.isEmpty() ? inference : gpus.size();
        double deviceBusy = Math.min(1, phase(l, "inferenceMs") / (window * devices));
        boolean chained = tokenizeParallelism <= 0;
        int tokenizers = chained ? inference : tokenizeParallelism;
        Map<String, Double> loads = new LinkedHashMap<>();
        loads.put("tokenize", phase(l, "tokenizeMs") / (window * tokenizers));
        loads.put("tensor", phase(l, "tensorMs") / (window * inference));
        loads.put("postprocess", phase(l, "postprocessMs") / (window * inference));
        loads.put("write", phase(l, "writeMs") / (window * inference));
        double host = (phase(l, "tokenizeMs") + phase(l, "tensorMs") + phase(l, "postprocessMs")
                + phase(l, "writeMs")) / (window * (inference + (chained ? 0 : tokenizers)));
        double thread = chained ? (phase(l, "tokenizeMs") + phase(l, "tensorMs") + phase(l, "inferenceMs")
                + phase(l, "postprocessMs") + phase(l, "writeMs")) / (window * inference) : 0;
        String top = loads.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse("tokenize");
        String bound;
        if (l.batches == 0) {
            bound = "no batches";
        } else if (deviceBusy >= DEVICE_BOUND) {
            bound = "device-bound";
        } else if (loads.get(top) >= HOST_BOUND || host >= HOST_BOUND || thread >= DEVICE_BOUND) {
            bound = "host-bound (" + top + ")";
        } else {
            bound = "upstream-bound (read, parse, shuffle: no stage from tokenize on is busy)";
        }
        return new RunBound(window, devices, deviceBusy, loads, host, chained, thread, bound);
    }

    private static double phase(RunLedger l, String name) {
        return l.phaseMs.getOrDefault(name, 0.0);
    }

    /** {@code device busy 38%: host-bound (tokenize); tokenize 91% of 1 subtask, tensor 2%, …}. */
    public String line() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "device busy %.0f%%: %s; ",
                100 * deviceBusy, bound));
        hostLoads.forEach((stage, load) -> s.append(String.format(Locale.ROOT, "%s %.0f%%, ", stage, 100 * load)));
        s.setLength(s.length() - 2);
        s.append(String.format(Locale.ROOT, "; host threads %.0f%% busy", 100 * hostBusy));
        s.append(tokenizeChained ? String.format(Locale.ROOT, " (tokenize chained with inference, thread busy %.0f%%)",
                100 * threadBusy) : " (tokenize in its own subtasks)");
        s.append(String.format(Locale.ROOT, " over the %.1f s batch window, %d device%s", windowMs / 1000, devices,
                devices == 1 ? "" : "s"));
        return s.toString();
    }
}
