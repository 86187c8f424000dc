package io.github.flinkinfer.runtime.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Whether ONNX Runtime's CUDA execution provider can load on this node, and why not, without
 * loading it: the sonames the provider needs and where the loader finds them, the NVIDIA driver
 * and the CUDA version it runs, the GPUs, and a verdict with the fix. {@code flink-inference
 * doctor} prints it; a run whose CUDA session fails to load carries its {@link
 * Diagnosis#summary()} in the error.
 *
 * <pre>{@code
 * CudaDoctor.Diagnosis d = CudaDoctor.ofThisNode(0, null); // cuda:0, the bundled provider
 * d.lines().forEach(System.out::println);
 * System.exit(d.canLoad() ? 0 : 1);
 * }</pre>
 */
public final class CudaDoctor {
    private CudaDoctor() {}

    /**
     * The check from a shell with model-runtime's jar alone (a container's health check): {@code
     * java -cp JAR io.github.flinkinfer.runtime.node.CudaDoctor [cuda[:N]] [ORT_NATIVE_DIR]}; exit
     * 0 when the provider can load, 1 otherwise. {@code flink-inference doctor} is the same check.
     */
    public static void main(String[] args) {
        int gpu = args.length > 0 && args[0].startsWith("cuda:") ? Integer.parseInt(args[0].substring(5)) : 0;
        Diagnosis d = ofThisNode(gpu, args.length > 1 ? Path.of(args[1]) : null);
        d.lines().forEach(System.out::println);
        System.exit(d.canLoad() ? 0 : 1);
    }

    /**
     * What the doctor found.
     *
     * @param canLoad whether every check passed
     * @param lines the report, a few lines, the verdict last
     * @param problems each problem with its fix, one line each (empty when it can load)
     */
    public record Diagnosis(boolean canLoad, List<String> lines, List<String> problems) {
        public Diagnosis {
            lines = List.copyOf(lines);
            problems = List.copyOf(problems);
        }

        /** The verdict in one line, for an error message. */
        public String summary() {
            return canLoad ? "the CUDA provider's libraries and the driver are there" : String.join("; ", problems);
        }
    }

    /**
     * Checks this node for {@code cuda:gpuIndex} with the provider a run would load: the one in
     * {@code ortNativeDir} when set, else in the JVM's {@code -Donnxruntime.native.path}, else the
     * class path's.
     */
    public static Diagnosis ofThisNode(int gpuIndex, Path ortNativeDir) {
        if (ortNativeDir == null && System.getProperty(OrtNatives.PROPERTY) != null) {
            ortNativeDir = Path.of(System.getProperty(OrtNatives.PROPERTY));
        }
        ProviderLibrary provider = ortNativeDir != null
                ? ProviderLibrary.inDirectory(ortNativeDir)
                : ProviderLibrary.bundled(CudaDoctor.class.getClassLoader());
        return check(gpuIndex, provider, ortNativeDir, LibrarySearch.ofThisNode(), NvidiaDriver.ofThisNode());
    }

    /** The checks on what a node shows (tests give a fake library directory and driver). */
    public static Diagnosis check(int gpuIndex, ProviderLibrary provider, Path ortNativeDir,
            LibrarySearch search, Optional<NvidiaDriver> driver) {
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        lines.add("device: cuda:" + gpuIndex);
        lines.add("ONNX Runtime CUDA provider: " + provider.source());
        if (ortNativeDir != null) {
            List<String> missing = OrtNatives.missingIn(ortNativeDir);
            lines.add("ONNX Runtime natives: " + ortNativeDir + (missing.isEmpty() ? "" : " (missing " + missing + ")"));
            if (!missing.isEmpty()) {
                problems.add("--ort-native-dir " + ortNativeDir + " lacks " + String.join(", ", missing)
                        + ": point it at an ONNX Runtime build's lib directory");
            }
        }
        if (!provider.present()) {
            problems.add(provider.absent());
        }

        List<String> missingCuda = new ArrayList<>();
        List<String> missingSystem = new ArrayList<>();
        List<String> system = new ArrayList<>();
        if (!provider.needed().isEmpty()) {
            lines.add("needs (DT_NEEDED, " + provider.recordedFrom() + "):");
        }
        for (String soname : provider.needed()) {
            Optional<LibrarySearch.Found> found = search.find(soname);
            if (isNvidia(soname)) {
                lines.add(String.format("  %-22s %s", soname,
                        found.map(f -> f.path() + " (" + f.where() + ")").orElse("missing")));
                if (found.isEmpty()) {
                    missingCuda.add(soname);
                }
            } else {
                system.add(soname);
                if (found.isEmpty()) {
                    missingSystem.add(soname);
                }
            }
        }
        if (!system.isEmpty()) {
            lines.add("  system: " + String.join(", ", system)
                    + (missingSystem.isEmpty() ? ": all found" : ": missing " + String.join(", ", missingSystem)));
        }
        TreeSet<Integer> cudaOnNode = search.majorVersions("libcudart.so.");
        TreeSet<Integer> cudnnOnNode = search.majorVersions("libcudnn.so.");
        lines.add("CUDA runtimes on this node: " + (cudaOnNode.isEmpty() ? "none" : versions("libcudart.so.", cudaOnNode))
                + "; cuDNN: " + (cudnnOnNode.isEmpty() ? "none" : versions("libcudnn.so.", cudnnOnNode)));
        lines.add("loader search: LD_LIBRARY_PATH=" + joined(search.libraryPath()) + ", ld.so.cache ("
                + search.cache().size() + " entries), " + joined(search.standardDirs()));
        if (!missingCuda.isEmpty()) {
            problems.add(missingLibraries(provider, missingCuda, cudaOnNode));
        }
        if (!missingSystem.isEmpty()) {
            problems.add("the system libraries " + String.join(", ", missingSystem) + " are missing: ONNX Runtime"
                    + " needs a glibc Linux with libstdc++ (e.g. Ubuntu 22.04+, deploy/docker's image)");
        }

        Optional<LibrarySearch.Found> libcuda = search.find("libcuda.so.1");
        if (driver.isEmpty()) {
            lines.add("NVIDIA driver: none (no " + NvidiaDriver.PROC_VERSION + ", no nvidia-smi)");
            lines.add("GPUs: none");
            problems.add(0, "no NVIDIA driver / no GPU on this node: run on a GPU node with the NVIDIA driver"
                    + driverFloor(provider) + " (in a container, the NVIDIA container toolkit or Kubernetes"
                    + " device plugin mounts it: request nvidia.com/gpu), or use --device cpu or auto");
        } else {
            NvidiaDriver d = driver.get();
            lines.add("NVIDIA driver: " + d.version() + ", runs CUDA up to " + d.cudaVersion()
                    + "; libcuda.so.1: " + libcuda.map(f -> f.path() + " (" + f.where() + ")").orElse("missing"));
            lines.add("GPUs: " + (d.gpus().isEmpty() ? (d.gpusListed() ? "none" : "not listed (no nvidia-smi)")
                    : d.gpus().stream().map(NvidiaDriver.Gpu::toString).collect(Collectors.joining("; "))));
            if (d.gpusListed() && d.gpus().stream().noneMatch(g -> g.index() == gpuIndex)) {
                problems.add("cuda:" + gpuIndex + " requested but nvidia-smi lists " + d.gpus().size()
                        + " GPU(s) here: use --device cuda:0.." + Math.max(0, d.gpus().size() - 1)
                        + ", or check CUDA_VISIBLE_DEVICES and the pod's nvidia.com/gpu request");
            }
            if (provider.cudaMajor() > 0 && !d.runsCuda(provider.cudaMajor())) {
                problems.add("driver " + d.version() + " runs CUDA up to " + d.cudaVersion() + " but the provider"
                        + " needs CUDA " + provider.cudaMajor() + ": update the driver to "
                        + NvidiaDriver.minimumDriverFor(provider.cudaMajor()) + " or newer");
            }
            if (libcuda.isEmpty()) {
                problems.add("the driver's libcuda.so.1 is not on the loader's path: in a container run it with the"
                        + " NVIDIA runtime (NVIDIA_DRIVER_CAPABILITIES=compute,utility), or add the driver's"
                        + " library directory to LD_LIBRARY_PATH");
            }
        }
        boolean canLoad = problems.isEmpty();
        lines.add("verdict: " + (canLoad ? "the CUDA execution provider can load on cuda:" + gpuIndex
                : "the CUDA execution provider cannot load on cuda:" + gpuIndex + ":"));
        problems.forEach(p -> lines.add("  - " + p));
        return new Diagnosis(canLoad, lines, problems);
    }

    /** The message for missing CUDA libraries, naming the CUDA the node has and the three ways out. */
    private static String missingLibraries(ProviderLibrary provider, List<String> missing, TreeSet<Integer> cudaOnNode) {
        int needs = provider.cudaMajor();
        String needsText = needs > 0 ? "CUDA " + needs + ".x" + (provider.cudnnMajor() > 0 ? " and cuDNN " + provider.cudnnMajor() : "")
                : "other CUDA libraries";
        String has = cudaOnNode.isEmpty() ? "this node has no CUDA runtime"
                : "this node has CUDA " + cudaOnNode.stream().map(String::valueOf).collect(Collectors.joining(", "));
        String packages = needs > 0 ? "install cuda-libraries-" + needs + "-x and cudnn" + Math.max(provider.cudnnMajor(), 9)
                + "-cuda-" + needs + " (or put their directory on LD_LIBRARY_PATH)" : "install them";
        String otherBuild = cudaOnNode.isEmpty() || cudaOnNode.contains(needs) ? "an ONNX Runtime build for this node's CUDA"
                : "an ONNX Runtime build for CUDA " + cudaOnNode.last();
        return "missing " + String.join(", ", missing) + ": " + has + "; " + provider.source().replaceAll(" \\(.*\\)$", "")
                + " needs " + needsText + ": " + packages + ", use deploy/docker's image, or point --ort-native-dir at "
                + otherBuild;
    }

    private static String driverFloor(ProviderLibrary provider) {
        return provider.cudaMajor() > 0
                ? ", " + NvidiaDriver.minimumDriverFor(provider.cudaMajor()) + " or newer for CUDA " + provider.cudaMajor()
                : "";
    }

    /** CUDA's and cuDNN's libraries, and NVIDIA's others, as opposed to the C/C++ runtime's. */
    static boolean isNvidia(String soname) {
        return soname.startsWith("libcu") || soname.startsWith("libnv");
    }

    private static String versions(String prefix, TreeSet<Integer> majors) {
        return majors.stream().map(m -> prefix + m).collect(Collectors.joining(", "));
    }

    private static String joined(List<Path> dirs) {
        return dirs.isEmpty() ? "(none)" : dirs.stream().map(Path::toString).collect(Collectors.joining(":"));
    }
}
