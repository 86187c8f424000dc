package io.github.flinkinfer.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a benchmark result as a markdown page with the table, ratios and targets. */
final class BenchReport {
    private BenchReport() {}

    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> result) {
        StringBuilder b = new StringBuilder();
        Map<String, Object> machine = (Map<String, Object>) result.get("machine");
        Map<String, Map<String, Object>> med = (Map<String, Map<String, Object>>) result.get("medians");
        Map<String, Object> ratios = (Map<String, Object>) result.get("ratios");
        Map<String, Object> memory = (Map<String, Object>) result.get("memory");
        double peak = Bench.num(machine, "fp32PeakGflops");
        b.append("# Benchmark ").append(result.get("date")).append("\n\n");
        b.append("Command: `").append(result.get("command")).append("`\n\n");
        b.append("Machine: ").append(machine.get("cpu")).append(", ").append(machine.get("cores"))
                .append(" cores @ ").append(machine.get("mhz")).append(" MHz nominal, AVX-512 ")
                .append(machine.get("avx512")).append("; fp32 peak ")
                .append(String.format(Locale.ROOT, "%.0f", peak)).append(" GFLOP/s (")
                .append(machine.get("peakFormula")).append(").\n\n");
        b.append("Versions: ").append(result.get("versions")).append(". Settings: ")
                .append(result.get("settings")).append(".\n\n");
        b.append("Medians of the interleaved rounds. Timers start after model load and warm-up and stop")
                .append(" after the last output; `flink` uses models-loaded → last batch written (from its")
                .append(" metrics records) and shows the whole `env.execute()` wall as e2e; `sql` is the same")
                .append(" embedding through `CREATE MODEL ... 'provider' = 'onnx'` + `ML_PREDICT`, timed the same")
                .append(" way (models ready → last batch, in-JVM recorder; e2e = `SqlEmbedding.run` wall).\n\n");
        b.append("| contender | items/s | real tokens/s | padding eff. | p50 / p90 / p95 / p99 batch ms |")
                .append(" useful GFLOP/s (% peak) | executed GFLOP/s | CPU busy | peak RSS MiB | e2e items/s |\n");
        b.append("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
        Map<String, Object> settings = (Map<String, Object>) result.get("settings");
        List<String> elsewhere = otherMaxLength(med, settings);
        med.forEach((c, m) -> b.append(String.format(Locale.ROOT,
                "| %s | %.1f | %.0f | %.3f | %s | %.1f (%.0f%%) | %.1f | %s | %.0f | %s |%n",
                elsewhere.contains(c) ? c + " † (max length " + m.get("maxLength") + ")" : c,
                Bench.num(m, "itemsPerSecond"), Bench.num(m, "realTokensPerSecond"),
                Bench.num(m, "paddingEfficiency"), latencies(m), Bench.num(m, "usefulGflops"),
                100 * Bench.num(m, "usefulGflops") / peak, Bench.num(m, "executedGflops"),
                m.get("cpuUtilization") instanceof Number u ? String.format(Locale.ROOT, "%.0f%%", 100 * u.doubleValue()) : "",
                Bench.num(m, "peakRssMiB"),
                m.containsKey("e2eItemsPerSecond") ? String.format(Locale.ROOT, "%.1f", Bench.num(m, "e2eItemsPerSecond")) : "")));
        if (!elsewhere.isEmpty()) {
            b.append(String.format(Locale.ROOT, "%n† %s ran at another max length than the run's %s"
                            + " (it keeps its own truncation): its tokens and FLOPs are those of the"
                            + " sequences it really ran, and it has no ratio, since it did other work.%n",
                    String.join(", ", elsewhere), settings.get("effectiveMaxLength")));
        }
        if (med.containsKey("sql") && med.containsKey("flink")) {
            b.append(String.format(Locale.ROOT, "%nSQL front door vs DataStream job: %.1f vs %.1f items/s"
                            + " (sql/flink %.2f×); e2e %.1f vs %.1f items/s.%n",
                    Bench.num(med.get("sql"), "itemsPerSecond"), Bench.num(med.get("flink"), "itemsPerSecond"),
                    Bench.num(med.get("sql"), "itemsPerSecond") / Bench.num(med.get("flink"), "itemsPerSecond"),
                    Bench.num(med.get("sql"), "e2eItemsPerSecond"), Bench.num(med.get("flink"), "e2eItemsPerSecond")));
        }
        hostPath(b, med);
        b.append("\n## Ratios (items/s, medians)\n\n| ratio | value |\n|---|---:|\n");
        ratios.forEach((k, v) -> b.append(String.format(Locale.ROOT, "| %s | %.2f× |%n", k, ((Number) v).doubleValue())));
        Map<String, Object> int8 = med.get("int8-bare-1x2");
        if (int8 != null) {
            b.append(String.format(Locale.ROOT, "%nint8 drift vs fp32 on the same batches: min cosine %.4f, mean %.4f (%s items).%n",
                    Bench.num(int8, "driftVsFp32MinCosine"), Bench.num(int8, "driftVsFp32MeanCosine"),
                    int8.get("driftItems")));
        }
        if (memory != null && !memory.isEmpty()) {
            b.append(String.format(Locale.ROOT, "%nMemory (Flink job, int8): %s docs → %.0f MiB peak RSS; %s docs → %.0f MiB (%+.1f%%).%n",
                    memory.get("docs"), Bench.num(memory, "peakRssMiB"), memory.get("docsLarge"),
                    Bench.num(memory, "peakRssMiBLarge"), 100 * Bench.num(memory, "growth")));
            if (memory.containsKey("growthFixedHeap")) {
                b.append(String.format(Locale.ROOT, "With a fixed, pre-touched %s heap (-Xms = -Xmx): %.0f MiB → %.0f MiB (%+.1f%%).%n",
                        memory.get("fixedHeap"), Bench.num(memory, "peakRssMiBFixedHeap"),
                        Bench.num(memory, "peakRssMiBLargeFixedHeap"), 100 * Bench.num(memory, "growthFixedHeap")));
            }
        }
        profiles(b, result);
        b.append("\n## Targets\n\n| target | measured | met |\n|---|---:|---|\n");
        target(b, ratios, "flink/langchain4j", 1.4);
        if (elsewhere.contains("langchain4j")) {
            b.append(String.format(Locale.ROOT, "| flink/langchain4j ≥ 1.40× | no ratio: langchain4j ran at max"
                    + " length %s, the others at %s | n/a |%n", med.get("langchain4j").get("maxLength"),
                    settings.get("effectiveMaxLength")));
        }
        target(b, ratios, "flink/arrival-batch32", 3.0);
        target(b, ratios, "flink/batch1", 1.15);
        target(b, ratios, "flink/bare-1x2", 0.85);
        if (med.containsKey("flink")) {
            double pe = Bench.num(med.get("flink"), "paddingEfficiency");
            b.append(String.format(Locale.ROOT, "| padding efficiency ≥ 0.95 (flink) | %.3f | %s |%n", pe, pe >= 0.95 ? "yes" : "no"));
        }
        double best = med.entrySet().stream().filter(e -> !e.getKey().startsWith("int8"))
                .mapToDouble(e -> Bench.num(e.getValue(), "usefulGflops")).filter(d -> !Double.isNaN(d)).max().orElse(0);
        b.append(String.format(Locale.ROOT, "| fp32 useful FLOP/s ≥ 60%% of peak (best contender) | %.0f%% | %s |%n",
                100 * best / peak, best / peak >= 0.6 ? "yes" : "no"));
        target(b, ratios, "int8-bare-1x2/bare-1x2", 2.0);
        if (memory != null && !memory.isEmpty()) {
            double g = Bench.num(memory, "growth");
            b.append(String.format(Locale.ROOT, "| 10× corpus raises peak RSS ≤ 20%% (default heap) | %+.1f%% | %s |%n", 100 * g, g <= 0.2 ? "yes" : "no"));
            if (memory.containsKey("growthFixedHeap")) {
                double f = Bench.num(memory, "growthFixedHeap");
                b.append(String.format(Locale.ROOT, "| 10× corpus raises peak RSS ≤ 20%% (fixed %s heap) | %+.1f%% | %s |%n",
                        memory.get("fixedHeap"), 100 * f, f <= 0.2 ? "yes" : "no"));
            }
        }
        return b.toString();
    }

    /** Profiles taken by contenders with {@code profile=1} (ONNX Runtime) or {@code jfr=1} (JFR). */
    @SuppressWarnings("unchecked")
    private static void profiles(StringBuilder b, Map<String, Object> result) {
        Map<String, List<Map<String, Object>>> runs = new java.util.LinkedHashMap<>();
        for (String key : List.of("runs", "profiles")) {
            if (result.get(key) instanceof Map<?, ?> m) {
                runs.putAll((Map<String, List<Map<String, Object>>>) m);
            }
        }
        boolean header = false;
        for (Map.Entry<String, List<Map<String, Object>>> e : runs.entrySet()) {
            Map<String, Object> last = e.getValue().get(e.getValue().size() - 1); // profiles are not medians
            for (String key : List.of("ortOpShares", "jfrPhaseShares")) {
                if (!(last.get(key) instanceof Map<?, ?> shares)) {
                    continue;
                }
                if (!header) {
                    b.append("\n## Profiles (one profiled run each, after the rounds; profiling overhead included)\n\n")
                            .append("Operator profiles: ONNX Runtime's own per-node timings (`--ort-profile`), summed by")
                            .append(" operator type; MatMul GFLOP/s = every FLOP counted above (dense layers and")
                            .append(" attention scores are all MatMuls in this graph) / MatMul kernel time (the 32-document")
                            .append(" warm-up is in the kernel time, so this is ≈ 3% low). JFR: execution and native-method")
                            .append(" samples of Java threads in the timed window, by the first pipeline frame from the leaf;")
                            .append(" ONNX Runtime's own pool threads are not Java threads and do not appear.\n");
                    header = true;
                }
                b.append("\n**").append(e.getKey()).append("**: ");
                if (key.equals("ortOpShares")) {
                    // every FLOP we count (dense layers and attention scores) is a MatMul in the graph
                    double gemm = Bench.num(last, "executedGflops") * Bench.num(last, "seconds")
                            / Bench.num(last, "ortMatMulSeconds");
                    b.append(String.format(Locale.ROOT, "ONNX Runtime kernel time by operator (%s runs, %.1f s in"
                                    + " model_run, kernels %.0f%% of it; MatMul kernels at ≈ %.0f GFLOP/s = %.0f%%"
                                    + " of peak): ", last.get("ortRuns"), Bench.num(last, "ortRunSeconds"),
                            100 * Bench.num(last, "ortKernelShareOfRun"), gemm,
                            100 * gemm / Bench.num((Map<String, Object>) result.get("machine"), "fp32PeakGflops")));
                } else {
                    b.append(String.format(Locale.ROOT, "JFR samples of Java threads by phase (%s samples): ",
                            last.get("jfrSamples")));
                }
                List<String> parts = new java.util.ArrayList<>();
                ((Map<String, Object>) shares).forEach((k, v) -> {
                    double share = ((Number) v).doubleValue();
                    if (share >= 0.005) {
                        parts.add(String.format(Locale.ROOT, "%s %.1f%%", k, 100 * share));
                    }
                });
                b.append(String.join(", ", parts)).append(".\n");
            }
        }
    }

    /** Contenders whose recorded max length is not the run's (older results record none). */
    static List<String> otherMaxLength(Map<String, Map<String, Object>> med, Map<String, Object> settings) {
        List<String> out = new java.util.ArrayList<>();
        Object run = settings == null ? null : settings.get("effectiveMaxLength");
        if (run instanceof Number n) {
            med.forEach((c, m) -> {
                if (m.get("maxLength") instanceof Number own && own.intValue() != n.intValue()) {
                    out.add(c);
                }
            });
        }
        return out;
    }

    private static void target(StringBuilder b, Map<String, Object> ratios, String key, double min) {
        if (ratios.get(key) instanceof Number n) {
            b.append(String.format(Locale.ROOT, "| %s ≥ %.2f× | %.2f× | %s |%n", key, min, n.doubleValue(),
                    n.doubleValue() >= min ? "yes" : "no"));
        }
    }

    private static String latencies(Map<String, Object> m) {
        if (!(m.get("p50BatchMs") instanceof Number)) {
            return "n/a";
        }
        return String.join(" / ", List.of("p50BatchMs", "p90BatchMs", "p95BatchMs", "p99BatchMs").stream()
                .map(k -> String.format(Locale.ROOT, "%.0f", Bench.num(m, k))).toList());
    }

    /**
     * The fixture-model contenders (HostCeiling): per-core (job) or per-thread (stage alone) rates,
     * the simulated device's busy share and the run's bound line.
     */
    private static void hostPath(StringBuilder b, Map<String, Map<String, Object>> med) {
        List<String> rows = med.keySet().stream()
                .filter(c -> Bench.ON_FIXTURE.contains(Variant.parse(c).base())).toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append("\n## Host path (fixture model) and simulated device\n\n")
                .append("Jobs: items/s and real tokens/s over the timed window ÷ cores (per core), and")
                .append(" job-wide (succeeded ÷ the whole wall, submission to end) ÷ cores; stages alone: per")
                .append(" thread. Device busy: simulated device time ÷ (window × devices). Bound: the run")
                .append(" report's line (docs/measurement.md, \"What bounds a run\"), from the first round; bound by:")
                .append(" the device when that line says device-bound, else the host. Device alone: items ÷ the")
                .append(" device's busy time, what it would do with these batches were the host never late.\n\n")
                .append("| contender | items/s | items/s per core (thread) | real tokens/s per core (thread) |")
                .append(" job-wide tokens/s per core | device busy | device alone items/s | bound by | bound |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (String c : rows) {
            Map<String, Object> m = med.get(c);
            boolean job = m.containsKey("itemsPerSecondPerCore");
            b.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %s | %s | %s | %s | %s |%n", c,
                    Bench.num(m, "itemsPerSecond"),
                    Bench.num(m, job ? "itemsPerSecondPerCore" : "itemsPerSecondPerThread"),
                    Bench.num(m, job ? "realTokensPerSecondPerCore" : "realTokensPerSecondPerThread"),
                    job ? String.format(Locale.ROOT, "%.0f", Bench.num(m, "jobWideRealTokensPerSecondPerCore")) : "",
                    m.get("deviceBusy") instanceof Number d ? String.format(Locale.ROOT, "%.0f%%", 100 * d.doubleValue()) : "",
                    m.get("deviceAloneItemsPerSecond") instanceof Number a ? String.format(Locale.ROOT, "%.0f", a.doubleValue()) : "",
                    m.get("bound") == null ? "" : String.valueOf(m.get("bound")).startsWith("device-bound") ? "device" : "host",
                    m.get("boundLine") == null ? "" : m.get("boundLine")));
        }
    }
}
