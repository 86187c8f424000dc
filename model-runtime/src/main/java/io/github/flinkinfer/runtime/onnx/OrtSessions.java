package io.github.flinkinfer.runtime.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.DeviceUnavailableException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds ONNX Runtime sessions from {@link RuntimeOptions}; the device seam lives here. */
public final class OrtSessions {
    private static final Logger LOG = LoggerFactory.getLogger(OrtSessions.class);

    private OrtSessions() {}

    /** A created session and the device it actually runs on (after any fallback). */
    public record Created(OrtSession session, Device device) {}

    public static Created create(byte[] model, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        Device device = selectDevice(so, options.device(), cudaOptions(options));
        return new Created(OrtEnvironment.getEnvironment().createSession(model, so), device);
    }

    /** Loads the graph from its file, so ONNX Runtime resolves its external data beside it. */
    public static Created create(java.nio.file.Path graph, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        Device device = selectDevice(so, options.device(), cudaOptions(options));
        return new Created(OrtEnvironment.getEnvironment().createSession(graph.toString(), so), device);
    }

    /**
     * Like {@link #create(byte[], RuntimeOptions)}, and ONNX Runtime writes the graph it optimized
     * to {@code optimizedOut} ({@link OptimizedGraphCache}).
     */
    static Created createSaving(byte[] model, RuntimeOptions options, java.nio.file.Path optimizedOut)
            throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        so.setOptimizedModelFilePath(optimizedOut.toString());
        Device device = selectDevice(so, options.device(), cudaOptions(options));
        return new Created(OrtEnvironment.getEnvironment().createSession(model, so), device);
    }

    /** Loads a graph ONNX Runtime optimized earlier under the same options, with optimization off. */
    static Created createOptimized(byte[] optimized, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        so.setOptimizationLevel(OptLevel.NO_OPT);
        Device device = selectDevice(so, options.device(), cudaOptions(options));
        return new Created(OrtEnvironment.getEnvironment().createSession(optimized, so), device);
    }

    private static OrtSession.SessionOptions sessionOptions(RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = new OrtSession.SessionOptions();
        so.setOptimizationLevel(optLevel(options.optimizationLevel()));
        if (options.intraOpThreads() > 0) {
            so.setIntraOpNumThreads(options.intraOpThreads());
        }
        so.setInterOpNumThreads(1);
        for (java.util.Map.Entry<String, String> e : options.sessionConfig().entrySet()) {
            so.addConfigEntry(e.getKey(), e.getValue());
        }
        if (options.profilePrefix() != null) {
            so.enableProfiling(options.profilePrefix());
        }
        return so;
    }

    /** Adds the CUDA provider when asked; falls back to CPU only for {@code auto}. */
    static Device selectDevice(OrtSession.SessionOptions so, Device requested) {
        return selectDevice(so, requested, java.util.Map.of());
    }

    /** As above, with CUDA provider options ({@link #cudaOptions}); empty = ORT's defaults. */
    static Device selectDevice(
            OrtSession.SessionOptions so, Device requested, java.util.Map<String, String> cuda) {
        if (requested.kind() == Device.Kind.CPU) {
            return Device.CPU;
        }
        try {
            if (cuda.isEmpty()) {
                so.addCUDA(requested.index());
            } else {
                // throws on a CPU-only build or without CUDA libraries, like addCUDA(int)
                ai.onnxruntime.providers.OrtCUDAProviderOptions cudaOptions =
                        new ai.onnxruntime.providers.OrtCUDAProviderOptions(requested.index());
                for (java.util.Map.Entry<String, String> e : cuda.entrySet()) {
                    cudaOptions.add(e.getKey(), e.getValue());
                }
                // left open like the session options themselves (one small struct per load):
                // the provider reads it when the session is created
                so.addCUDA(cudaOptions);
            }
            return new Device(Device.Kind.CUDA, requested.index());
        } catch (OrtException | RuntimeException | LinkageError e) {
            if (requested.kind() == Device.Kind.AUTO) {
                LOG.warn(
                        "Device auto: CUDA provider unavailable ({}); running on CPU",
                        e.getMessage());
                return Device.CPU;
            }
            throw new DeviceUnavailableException(
                    "Device " + requested + " requested but the CUDA execution provider cannot be"
                            + " used: " + e.getMessage() + ". Build with -Pgpu (onnxruntime_gpu)"
                            + " and install CUDA 12 + cuDNN 9, or use --device auto|cpu.",
                    e);
        }
    }

    /**
     * The CUDA provider options set in {@code options}, by ONNX Runtime's key ({@code
     * gpu_mem_limit}, {@code arena_extend_strategy}); empty when all are ORT's defaults.
     */
    static java.util.Map<String, String> cudaOptions(RuntimeOptions options) {
        java.util.Map<String, String> cuda = new java.util.TreeMap<>();
        if (options.cudaMemLimitBytes() > 0) {
            cuda.put("gpu_mem_limit", Long.toString(options.cudaMemLimitBytes()));
        }
        if (options.cudaArenaExtendStrategy() != null) {
            cuda.put("arena_extend_strategy",
                    RuntimeOptions.ARENA_STRATEGIES.get(options.cudaArenaExtendStrategy()));
        }
        return cuda;
    }

    static OptLevel optLevel(String name) {
        switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
            case "none":
                return OptLevel.NO_OPT;
            case "basic":
                return OptLevel.BASIC_OPT;
            case "extended":
                return OptLevel.EXTENDED_OPT;
            case "all":
                return OptLevel.ALL_OPT;
            default:
                throw new IllegalArgumentException(
                        "Unknown optimization level '" + name + "': none, basic, extended or all");
        }
    }
}
