package io.github.flinkinfer.runtime.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NVIDIA driver of a node and its GPUs: the kernel module's version from {@code
 * /proc/driver/nvidia/version}, the CUDA version the driver supports and the GPUs with their memory
 * from {@code nvidia-smi} when it is there (else the CUDA version from the driver's version).
 *
 * <pre>{@code
 * NvidiaDriver d = NvidiaDriver.ofThisNode().orElseThrow(); // empty: no driver loaded
 * d.version();      // "580.159.04"
 * d.cudaVersion();  // "13.0"
 * d.gpus();         // [Gpu[index=0, name=NVIDIA H200, memoryMiB=143771]]
 * }</pre>
 *
 * @param version the driver's version
 * @param cudaVersion the newest CUDA version it runs ({@code nvidia-smi}'s header, or derived)
 * @param gpus its GPUs; empty when {@code nvidia-smi} is not there to list them
 * @param gpusListed whether {@code nvidia-smi} listed them (so an empty list means none)
 */
public record NvidiaDriver(String version, String cudaVersion, List<Gpu> gpus, boolean gpusListed) {
    static final Path PROC_VERSION = Path.of("/proc/driver/nvidia/version");

    /**
     * The newest CUDA major version each driver runs and the oldest driver for it (NVIDIA's CUDA
     * toolkit release notes, "CUDA Toolkit and Minimum Required Driver Version"; a 12.x runtime
     * runs on any driver from 525.60.13 by CUDA's minor version compatibility).
     */
    private static final int[][] CUDA_BY_DRIVER = {{580, 65, 13}, {525, 60, 12}, {450, 80, 11}};

    private static final Pattern MODULE_VERSION = Pattern.compile("Kernel Module.*?\\s(\\d+\\.\\d+(?:\\.\\d+)?)\\s");
    private static final Pattern SMI_CUDA = Pattern.compile("CUDA Version:\\s*(\\d+\\.\\d+)");

    /** One GPU as {@code nvidia-smi} lists it. */
    public record Gpu(int index, String name, long memoryMiB) {
        @Override
        public String toString() {
            return "cuda:" + index + " " + name + ", " + memoryMiB + " MiB";
        }
    }

    public NvidiaDriver {
        gpus = List.copyOf(gpus);
    }

    /** This node's driver; empty when no NVIDIA kernel module is loaded and there is no {@code nvidia-smi}. */
    public static Optional<NvidiaDriver> ofThisNode() {
        String module = null;
        try {
            module = moduleVersion(Files.readString(PROC_VERSION));
        } catch (IOException | RuntimeException e) {
            // no driver loaded (or /proc not readable): nvidia-smi may still say
        }
        String smi = LibrarySearch.run("nvidia-smi");
        String query = LibrarySearch.run("nvidia-smi",
                "--query-gpu=index,name,memory.total,driver_version", "--format=csv,noheader,nounits");
        return of(module, smi, query);
    }

    /**
     * A driver from what the node shows: the kernel module's version (null: none), {@code
     * nvidia-smi}'s output and its {@code --query-gpu=index,name,memory.total,driver_version} CSV
     * (empty: not there or failed).
     */
    static Optional<NvidiaDriver> of(String moduleVersion, String smiOutput, String smiQuery) {
        List<Gpu> gpus = new ArrayList<>();
        String version = moduleVersion;
        for (String line : smiQuery.split("\n")) {
            String[] f = line.split(",\\s*");
            if (f.length >= 4 && f[0].trim().matches("\\d+")) {
                long memory = f[2].trim().matches("\\d+") ? Long.parseLong(f[2].trim()) : 0;
                gpus.add(new Gpu(Integer.parseInt(f[0].trim()), f[1].trim(), memory));
                version = version != null ? version : f[3].trim();
            }
        }
        if (version == null) {
            return Optional.empty();
        }
        Matcher cuda = SMI_CUDA.matcher(smiOutput);
        String cudaVersion = cuda.find() ? cuda.group(1) : cudaMajorFor(version).map(m -> m + ".x").orElse("unknown");
        return Optional.of(new NvidiaDriver(version, cudaVersion, gpus, !smiQuery.isBlank()));
    }

    /** The version in {@code /proc/driver/nvidia/version}'s text; null when it names none. */
    static String moduleVersion(String procText) {
        Matcher m = MODULE_VERSION.matcher(procText);
        return m.find() ? m.group(1) : null;
    }

    /** The newest CUDA major version {@code driverVersion} runs; empty when it is older than CUDA 11's. */
    static Optional<Integer> cudaMajorFor(String driverVersion) {
        int[] v = parts(driverVersion);
        for (int[] row : CUDA_BY_DRIVER) {
            if (v[0] > row[0] || (v[0] == row[0] && v[1] >= row[1])) {
                return Optional.of(row[2]);
            }
        }
        return Optional.empty();
    }

    /** The oldest driver that runs CUDA {@code major} (e.g. 12: 525.60.13), for the fix. */
    static String minimumDriverFor(int major) {
        return switch (major) {
            case 13 -> "580.65.06";
            case 12 -> "525.60.13";
            case 11 -> "450.80.02";
            default -> "a driver for CUDA " + major;
        };
    }

    /** Whether this driver runs CUDA {@code major}. */
    public boolean runsCuda(int major) {
        return cudaMajorFor(version).map(m -> m >= major).orElse(false);
    }

    private static int[] parts(String version) {
        String[] s = version.split("\\.");
        int[] v = new int[2];
        for (int i = 0; i < 2 && i < s.length; i++) {
            v[i] = s[i].matches("\\d+") ? Integer.parseInt(s[i]) : 0;
        }
        return v;
    }
}
