package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.operators.ledger.RunLedger;
import java.util.Collections;
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
 * @param inBatches Σ the inference subtasks' batch wall times ({@code totalMs}: phases, waits for
 *     a shared device and the model call's untimed host side) ÷ (window × inference subtasks), at
 *     most 1: near 1, the subtasks never waited for input
 * @param processCpu the busiest TaskManager's CPU over its batch window: its process CPU time
 *     from its first to its last batch end ÷ (that span × its cores); -1 unknown
 * @param processCores that TaskManager's cores
 * @param bound {@code device-bound}, {@code device-bound (CPU: …)}, {@code host-bound (<stage>)},
 *     {@code host-bound (CPU: …)},
 *     {@code call-bound (…)} or {@code upstream-bound (…)}
 */
public record RunBound(double windowMs, int devices, double deviceBusy, Map<String, Double> hostLoads,
        double hostBusy, boolean tokenizeChained, double threadBusy, double inBatches, double processCpu,
        int processCores, String bound) {
    /** Device busy at or above this: the device is what bounds the run. */
    public static final double DEVICE_BOUND = 0.8;
    /**
     * A host stage at or above this load, the host threads together at or above it, or a chained
     * thread at {@link #DEVICE_BOUND}: the host bounds the run. Low, because stages that share
     * cores each look little loaded: on the 2-core development machine a tokenize subtask that
     * limited the simulated device showed 33–56% (docs/benchmarks/device-sim.md).
     */
    public static final double HOST_BOUND = 0.25;
    /**
     * A TaskManager's cores busy at or above this while its device waits and no timed stage is:
     * the host's CPU bounds the run, spent where no stage timer looks (reading, parsing, the
     * exchanges' serialization, the model call's host side). Below 100% because threads that
     * hand work to each other never keep every core busy: on the 2-core machine a simulated
     * device starved this way showed 79–81% (docs/benchmarks/device-sim.md).
     */
    public static final double CPU_BOUND = 0.75;

    /**
     * On the CPU, a chained thread at {@link #DEVICE_BOUND} that spends at least as long in the
     * model's calls as in the host stages: the model's compute bounds the run, whatever the host
     * stage with the largest load (16 MiniLM subtasks on 2 cores: device busy 73%, thread 88%,
     * write 13%, which the rule for a GPU called host-bound by write).
     */
    static final String CPU_MODEL_BOUND = "device-bound (CPU: the subtasks' threads are busy, mostly in the model)";

    public RunBound {
        hostLoads = Collections.unmodifiableMap(new LinkedHashMap<>(hostLoads)); // in stage order
    }

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
        double[] cpu = busiestProcess(l);
        double inBatches = Math.min(1, l.subtasks.values().stream().mapToDouble(x -> x.busyMs).sum() / (window * inference));
        String top = loads.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse("tokenize");
        String bound;
        if (l.batches == 0) {
            bound = "no batches";
        } else if (deviceBusy >= DEVICE_BOUND) {
            bound = "device-bound";
        } else if (gpus.isEmpty() && thread >= DEVICE_BOUND && deviceBusy >= thread - deviceBusy) {
            // on the CPU a chained subtask's thread is its engine: busy, and mostly in the model's calls
            bound = CPU_MODEL_BOUND;
        } else if (loads.get(top) >= HOST_BOUND || host >= HOST_BOUND || thread >= DEVICE_BOUND) {
            bound = "host-bound (" + top + ")";
        } else if (cpu[0] >= CPU_BOUND) {
            bound = "host-bound (CPU: the TaskManager's cores are busy outside the timed stages)";
        } else if (inBatches >= DEVICE_BOUND) {
            bound = "call-bound (the inference subtasks are always in a batch, outside its timed phases: "
                    + "waiting for a shared device, or the model call's host side)";
        } else {
            bound = "upstream-bound (read, parse, shuffle: no stage from tokenize on is busy)";
        }
        return new RunBound(window, devices, deviceBusy, loads, host, chained, thread, inBatches, cpu[0], (int) cpu[1], bound);
    }

    /** One TaskManager process's CPU samples: CPU ms at its earliest and latest batch end, those ends, its cores. */
    private record CpuSpan(long firstCpuMs, long lastCpuMs, long firstAt, long lastAt, int cores) {
        CpuSpan with(RunLedger.Lane x) {
            return new CpuSpan(Math.min(firstCpuMs, x.processCpuFirstMs), Math.max(lastCpuMs, x.processCpuLastMs),
                    Math.min(firstAt, x.processCpuFirstAt), Math.max(lastAt, x.lastBatchEnd),
                    Math.max(cores, x.processCores));
        }

        /** CPU used between the two batch ends ÷ (that span × cores), at most 1; -1 for no span. */
        double load() {
            return lastAt > firstAt ? Math.min(1, (lastCpuMs - firstCpuMs) / (double) ((lastAt - firstAt) * cores)) : -1;
        }
    }

    /**
     * [CPU load, cores] of the busiest TaskManager process: its CPU ms between the earliest and
     * the latest batch end its lanes sampled ÷ (that span × its cores); [-1, 0] without samples.
     */
    private static double[] busiestProcess(RunLedger l) {
        Map<String, CpuSpan> spans = new LinkedHashMap<>();
        for (RunLedger.Lane x : l.subtasks.values()) {
            if (x.process != null && x.processCpuFirstMs >= 0 && x.batches > 0) {
                spans.merge(x.process, new CpuSpan(x.processCpuFirstMs, x.processCpuLastMs, x.processCpuFirstAt,
                        x.lastBatchEnd, Math.max(1, x.processCores)), (a, b) -> a.with(x));
            }
        }
        double[] busiest = {-1, 0};
        for (CpuSpan s : spans.values()) {
            if (s.load() > busiest[0]) {
                busiest = new double[] {s.load(), s.cores()};
            }
        }
        return busiest;
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
        s.append(String.format(Locale.ROOT, "; in batches %.0f%%", 100 * inBatches));
        if (processCpu >= 0) {
            s.append(String.format(Locale.ROOT, "; TaskManager CPU %.0f%% of %d core%s", 100 * processCpu,
                    processCores, processCores == 1 ? "" : "s"));
        }
        s.append(String.format(Locale.ROOT, " over the %.1f s batch window, %d device%s", windowMs / 1000, devices,
                devices == 1 ? "" : "s"));
        return s.toString();
    }
}
