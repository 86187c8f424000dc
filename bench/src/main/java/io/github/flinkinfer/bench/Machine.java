package io.github.flinkinfer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine's description and fp32 peak estimate: cores × clock × FLOPs per cycle, where a
 * core with AVX-512 and two FMA units does 2 × 16 × 2 = 64 fp32 FLOPs per cycle (32 with
 * AVX2). Cloud vCPUs do not say how many FMA units they have; the estimate assumes two, so it is
 * an upper bound. Peak RSS comes from {@code VmHWM} in {@code /proc/self/status}.
 */
final class Machine {
    private Machine() {}

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpuinfo("model name"));
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("mhz", mhz());
        m.put("avx512", flags().contains(" avx512f"));
        m.put("fp32PeakGflops", peakGflops());
        m.put("peakFormula", "cores x MHz x (avx512 ? 64 : 32) FLOP/cycle (2 FMA units assumed)");
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.version"));
        return m;
    }

    static double peakGflops() {
        int perCycle = flags().contains(" avx512f") ? 64 : 32;
        return Runtime.getRuntime().availableProcessors() * mhz() * perCycle / 1000.0;
    }

    static double mhz() {
        try {
            return Double.parseDouble(cpuinfo("cpu MHz"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String flags() {
        return " " + cpuinfo("flags") + " ";
    }

    private static String cpuinfo(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return "";
    }

    /** Peak resident set size of this process in MiB (Linux), or -1. */
    static double peakRssMiB() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/self/status"));
            for (String l : lines) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("\\D+", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return -1;
    }
}
