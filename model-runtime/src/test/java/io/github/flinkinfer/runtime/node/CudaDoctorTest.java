package io.github.flinkinfer.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The doctor's verdicts on fake nodes: a library directory of empty files named like the
 * libraries (what a directory scan sees), the H200 node of issue 39 (driver 580.159.04, CUDA 13
 * libraries only) and one with CUDA 12 + cuDNN 9, against the recorded needs of the bundled
 * onnxruntime_gpu provider.
 */
class CudaDoctorTest {
    /** What the H200 node had (issue 39), plus curand, which CUDA 13 still ships as .so.10. */
    static final List<String> CUDA_13 = List.of("libcublasLt.so.13", "libcublas.so.13", "libcudart.so.13",
            "libcufft.so.12", "libcurand.so.10", "libcudnn.so.9", "libcuda.so.1");
    static final List<String> CUDA_12 = List.of("libcublasLt.so.12", "libcublas.so.12", "libcudart.so.12",
            "libcufft.so.11", "libcurand.so.10", "libcudnn.so.9", "libcuda.so.1");
    static final List<String> SYSTEM = List.of("libdl.so.2", "librt.so.1", "libpthread.so.0", "libstdc++.so.6",
            "libm.so.6", "libgcc_s.so.1", "libc.so.6", "ld-linux-x86-64.so.2");
    static final Optional<NvidiaDriver> H200 = NvidiaDriver.of("580.159.04",
            "| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |",
            "0, NVIDIA H200, 143771, 580.159.04\n");

    @TempDir Path tmp;
    private ProviderLibrary bundled;

    /** The recorded provider, present: a class path that carries the provider's file, as -Pgpu's does. */
    @BeforeEach
    void gpuClassPath() throws IOException {
        Path classes = tmp.resolve("classes");
        Path library = classes.resolve("ai/onnxruntime/native/linux-x64/" + ProviderLibrary.FILE);
        Files.createDirectories(library.getParent());
        Files.createFile(library);
        bundled = ProviderLibrary.bundled(new URLClassLoader(new URL[] {classes.toUri().toURL()}, null));
    }

    @Test
    void theRecordIsTheBundledProvidersNeeds() {
        assertThat(bundled.present()).isTrue();
        assertThat(bundled.needed()).startsWith("libcublasLt.so.12", "libcublas.so.12", "libcurand.so.10",
                "libcufft.so.11", "libcudart.so.12", "libcudnn.so.9").containsAll(SYSTEM);
        assertThat(bundled.cudaMajor()).isEqualTo(12);
        assertThat(bundled.cudnnMajor()).isEqualTo(9);
        assertThat(bundled.source()).startsWith("onnxruntime_gpu 1.23.2");
        assertThat(bundled.recordedFrom()).contains("sha256 524324f51784a952");
    }

    /** An ONNX Runtime upgrade must re-record the provider's needs (record-cuda-needs.sh). */
    @Test
    void theRecordIsOfTheVersionTheBuildUses() throws IOException {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        String version = pom.replaceAll("(?s).*<onnxruntime.version>([^<]+)</onnxruntime.version>.*", "$1");
        assertThat(bundled.source()).as("run model-runtime/src/main/scripts/record-cuda-needs.sh after an ORT upgrade")
                .startsWith("onnxruntime_gpu " + version + " ");
    }

    @Test
    void aCuda13NodeLacksTheCuda12LibrariesAndSaysWhatToDo() throws IOException {
        CudaDoctor.Diagnosis d = CudaDoctor.check(0, bundled, null, node(CUDA_13), H200);

        assertThat(d.canLoad()).isFalse();
        assertThat(d.problems()).singleElement().satisfies(p -> assertThat(p)
                .startsWith("missing libcublasLt.so.12, libcublas.so.12, libcufft.so.11, libcudart.so.12:")
                .contains("this node has CUDA 13", "onnxruntime_gpu 1.23.2 needs CUDA 12.x and cuDNN 9",
                        "install cuda-libraries-12-x and cudnn9-cuda-12", "deploy/docker's image",
                        "point --ort-native-dir at an ONNX Runtime build for CUDA 13"));
        assertThat(d.lines()).anySatisfy(l -> assertThat(l).contains("libcublasLt.so.12").endsWith("missing"))
                .anySatisfy(l -> assertThat(l).contains("libcudnn.so.9", tmp.resolve("lib").toString()))
                .contains("NVIDIA driver: 580.159.04, runs CUDA up to 13.0; libcuda.so.1: "
                        + tmp.resolve("lib/libcuda.so.1") + " (LD_LIBRARY_PATH)")
                .contains("GPUs: cuda:0 NVIDIA H200, 143771 MiB")
                .contains("CUDA runtimes on this node: libcudart.so.13; cuDNN: libcudnn.so.9");
        assertThat(d.lines().get(d.lines().size() - 2)).isEqualTo("verdict: the CUDA execution provider cannot load on cuda:0:");
        assertThat(d.summary()).isEqualTo(d.problems().get(0));
    }

    @Test
    void aCuda12NodeWithItsDriverCanLoad() throws IOException {
        CudaDoctor.Diagnosis d = CudaDoctor.check(0, bundled, null, node(CUDA_12), H200);

        assertThat(d.problems()).isEmpty();
        assertThat(d.canLoad()).isTrue();
        assertThat(d.lines()).last().isEqualTo("verdict: the CUDA execution provider can load on cuda:0");
        assertThat(d.lines()).contains("  system: " + String.join(", ", SYSTEM) + ": all found");
    }

    @Test
    void withoutADriverTheVerdictSaysSoFirst() throws IOException {
        CudaDoctor.Diagnosis d = CudaDoctor.check(0, bundled, null, node(CUDA_12), Optional.empty());

        assertThat(d.canLoad()).isFalse();
        assertThat(d.problems()).singleElement().asString().startsWith("no NVIDIA driver / no GPU on this node")
                .contains("525.60.13 or newer for CUDA 12", "--device cpu or auto");
        assertThat(d.lines()).contains("NVIDIA driver: none (no /proc/driver/nvidia/version, no nvidia-smi)", "GPUs: none");
    }

    @Test
    void anOldDriverAMissingGpuAndAMissingLibcudaAreEachNamed() throws IOException {
        List<String> noLibcuda = CUDA_12.stream().filter(s -> !s.equals("libcuda.so.1")).toList();
        Optional<NvidiaDriver> old = NvidiaDriver.of("470.82.01", "", "0, Tesla T4, 15360, 470.82.01\n");

        CudaDoctor.Diagnosis d = CudaDoctor.check(1, bundled, null, node(noLibcuda), old);

        assertThat(d.problems()).hasSize(3)
                .anySatisfy(p -> assertThat(p).startsWith("cuda:1 requested but nvidia-smi lists 1 GPU(s)"))
                .anySatisfy(p -> assertThat(p).contains("driver 470.82.01 runs CUDA up to 11.x",
                        "update the driver to 525.60.13 or newer"))
                .anySatisfy(p -> assertThat(p).startsWith("the driver's libcuda.so.1 is not on the loader's path"));
    }

    @Test
    void aCpuOnlyClassPathIsNamedWithItsFix() throws IOException {
        ProviderLibrary cpu = ProviderLibrary.bundled(new URLClassLoader(new URL[0], null));

        CudaDoctor.Diagnosis d = CudaDoctor.check(0, cpu, null, node(CUDA_12), H200);

        assertThat(cpu.present()).isFalse();
        assertThat(d.problems()).singleElement().asString()
                .startsWith("this build carries ONNX Runtime for CPU only").contains("-Pgpu (onnxruntime_gpu 1.23.2)");
    }

    @Test
    void aNativeDirectoryWithoutACudaProviderOrWithoutOrtIsNamed() throws IOException {
        Path natives = Files.createDirectories(tmp.resolve("ort"));
        Files.createFile(natives.resolve("libonnxruntime.so"));

        CudaDoctor.Diagnosis d = CudaDoctor.check(0, ProviderLibrary.inDirectory(natives), natives, node(CUDA_12), H200);

        assertThat(d.problems()).hasSize(2)
                .anySatisfy(p -> assertThat(p).startsWith("--ort-native-dir " + natives + " lacks libonnxruntime4j_jni.so"))
                .anySatisfy(p -> assertThat(p).startsWith(natives + " has no " + ProviderLibrary.FILE));
    }

    @Test
    void libraryPathComesBeforeTheCacheAndTheStandardDirectories() throws IOException {
        Path first = Files.createDirectories(tmp.resolve("first"));
        Path standard = Files.createDirectories(tmp.resolve("standard"));
        Files.createFile(first.resolve("libcudart.so.12"));
        Files.createFile(standard.resolve("libcudart.so.12"));
        Files.createFile(standard.resolve("libcudart.so.11.0"));
        var cache = LibrarySearch.parseCache("""
                3 libs found in cache `/etc/ld.so.cache'
                \tlibcudart.so.12 (libc6,x86-64) => /usr/local/cuda-12.6/lib64/libcudart.so.12
                \tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudart.so.13
                \tlibcudart.so.13 (libc6) => /usr/local/cuda-13.0/lib32/libcudart.so.13
                """, "amd64");
        LibrarySearch search = new LibrarySearch(List.of(tmp.resolve("absent"), first), cache, List.of(standard));

        assertThat(cache).containsOnlyKeys("libcudart.so.12", "libcudart.so.13");
        assertThat(search.find("libcudart.so.12")).contains(new LibrarySearch.Found(first.resolve("libcudart.so.12"), "LD_LIBRARY_PATH"));
        assertThat(new LibrarySearch(List.of(), cache, List.of(standard)).find("libcudart.so.12"))
                .contains(new LibrarySearch.Found(Path.of("/usr/local/cuda-12.6/lib64/libcudart.so.12"), "ld.so.cache"));
        assertThat(new LibrarySearch(List.of(), java.util.Map.of(), List.of(standard)).find("libcudart.so.12"))
                .contains(new LibrarySearch.Found(standard.resolve("libcudart.so.12"), "standard directory"));
        assertThat(search.find("libcudnn.so.9")).isEmpty();
        assertThat(search.majorVersions("libcudart.so.")).containsExactly(12, 13);
    }

    /** A node whose loader sees one directory holding {@code cuda} and the system libraries. */
    private LibrarySearch node(List<String> cuda) throws IOException {
        Path lib = Files.createDirectories(tmp.resolve("lib"));
        for (String name : cuda) {
            Files.createFile(lib.resolve(name));
        }
        for (String name : SYSTEM) {
            Files.createFile(lib.resolve(name));
        }
        return LibrarySearch.inDirectories(List.of(lib));
    }
}
