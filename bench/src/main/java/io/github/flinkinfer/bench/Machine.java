package io.github.flinkinfer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine's description and fp32 peak. The peak is <b>measured</b> ({@link PeakProbe}: FMA
 * chains on every core, in a child JVM); the nominal formula, cores × /proc/cpuinfo clock × 64
 * FLOPs per cycle with AVX-512 (two FMA units × 16 lanes × 2), is kept beside it for reference:
 * on this cloud vCPU it understates the peak, because cores run above the nominal clock (the
 * benchmark's first committed run used it and so overstated "% of peak"). Peak RSS comes from
 * {@code VmHWM} in {@code /proc/self/status}.
 */
final class Machine {
    private Machine() {}

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpuinfo("model name"));
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("mhz", mhz());
        m.put("avx512", flags().contains(" avx512f"));
        double nominal = peakGflops();
        double measured = measuredPeakGflops();
        m.put("fp32PeakGflops", measured > 0 ? measured : nominal);
        m.put("fp32PeakMeasuredGflops", measured);
        m.put("fp32PeakNominalGflops", nominal);
        m.put("peakFormula", measured > 0
                ? "measured: FMA chains on every core (PeakProbe, best of 10); nominal formula cores x MHz x"
                        + " (avx512 ? 64 : 32) = " + Math.round(nominal) + " GFLOP/s understates it (turbo)"
                : "cores x MHz x (avx512 ? 64 : 32) FLOP/cycle (2 FMA units assumed)");
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("java", System.getProperty("java.version"));
        return m;
    }

    static double peakGflops() {
        int perCycle = flags().contains(" avx512f") ? 64 : 32;
        return Runtime.getRuntime().availableProcessors() * mhz() * perCycle / 1000.0;
    }

    /** Runs {@link PeakProbe} in a child JVM; 0 when it cannot run (then the formula is used). */
    static double measuredPeakGflops() {
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
                    PeakProbe.class.getName())
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() == 0) {
                for (String line : out.split("\n")) {
                    if (line.startsWith("PEAK ")) {
                        return Double.parseDouble(line.split(" ")[1]);
                    }
                }
            }
            System.err.println("PeakProbe failed; using the nominal formula:\n" + out);
        } catch (IOException | InterruptedException | NumberFormatException e) {
            System.err.println("PeakProbe failed (" + e + "); using the nominal formula");
        }
        return 0;
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
