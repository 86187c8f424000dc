package io.github.flinkinfer.jobs.cli;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.node.CudaDoctor;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code doctor}: says on a node whether ONNX Runtime's CUDA execution provider can load for
 * {@code --device cuda[:N]} and why not (the libraries it needs and where the loader finds them,
 * the driver, the GPUs, a verdict with the fix), before a job finds out one missing library at a
 * time. The logic is model-runtime's {@link CudaDoctor}; exit 0 when it can load, 1 otherwise.
 *
 * <pre>{@code
 * flink-inference doctor --device cuda:0
 * flink-inference doctor --device cuda --ort-native-dir /opt/onnxruntime-cuda13/lib
 * }</pre>
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check this node for --device cuda[:N]: the libraries ONNX Runtime's CUDA provider"
                + " needs and where they are, the NVIDIA driver, the GPUs, and a verdict with the fix."
                + " Exit 0 when the provider can load, 1 otherwise (docs/operations.md).")
public final class DoctorCommand implements Callable<Integer> {
    @Option(names = "--device", defaultValue = "cuda",
            description = "The device a run would ask for: cuda or cuda:N (cpu needs no check; auto"
                    + " falls back to CPU, so it exits 0 either way). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--ort-native-dir", paramLabel = "DIR",
            description = "Check the ONNX Runtime natives a run with --ort-native-dir DIR would load"
                    + " (its own CUDA provider's needs) instead of the class path's. Default: the JVM's"
                    + " -Donnxruntime.native.path when set (FLINK_INFERENCE_OPTS).")
    Path ortNativeDir;

    @Override
    public Integer call() {
        Device d = Device.parse(device);
        if (d.kind() == Device.Kind.CPU) {
            System.out.println("device: cpu: nothing to check (ONNX Runtime's CPU provider is always there)");
            return 0;
        }
        CudaDoctor.Diagnosis diagnosis = CudaDoctor.ofThisNode(d.index(), ortNativeDir);
        diagnosis.lines().forEach(System.out::println);
        if (d.kind() == Device.Kind.AUTO && !diagnosis.canLoad()) {
            System.out.println("device auto: a run falls back to CPU here");
            return 0;
        }
        return diagnosis.canLoad() ? 0 : 1;
    }
}
