package io.github.flinkinfer.runtime.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import io.github.flinkinfer.runtime.node.CudaDoctor;
import io.github.flinkinfer.runtime.node.OrtNatives;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.DeviceUnavailableException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds ONNX Runtime sessions from {@link RuntimeOptions}; the device seam lives here. */
public final class OrtSessions {
    private static final Logger LOG = LoggerFactory.getLogger(OrtSessions.class);

    /** System property: ONNX Runtime's session log level ({@code warning} with the CLI's --verbose). */
    public static final String LOG_LEVEL_PROPERTY = "flinkinfer.ort.log-level";

    /**
     * ONNX Runtime writes its own log lines to the process's stderr, bypassing the logging
     * configuration: by default only errors, so its warnings (e.g. that a graph saved for the
     * {@link OptimizedGraphCache} is for this CPU only, which its key ensures) stay off the console.
     */
    private static final OrtLoggingLevel LOG_LEVEL = logLevel(System.getProperty(LOG_LEVEL_PROPERTY, "error"));

    /** The doctor's diagnosis per GPU index and native directory, once per JVM (each runs ldconfig, nvidia-smi). */
    private static final java.util.Map<String, CudaDoctor.Diagnosis> DIAGNOSES =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static final java.util.concurrent.atomic.AtomicBoolean NATIVES_LOGGED =
            new java.util.concurrent.atomic.AtomicBoolean();

    private OrtSessions() {}

    /** A created session and the device it actually runs on (after any fallback). */
    public record Created(OrtSession session, Device device) {}

    public static Created create(byte[] model, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        Device device = selectDevice(so, options.device(), cudaOptions(options), options.ortNativeDir());
        return new Created(OrtEnvironment.getEnvironment().createSession(model, so), device);
    }

    /** Loads the graph from its file, so ONNX Runtime resolves its external data beside it. */
    public static Created create(java.nio.file.Path graph, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        Device device = selectDevice(so, options.device(), cudaOptions(options), options.ortNativeDir());
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
        Device device = selectDevice(so, options.device(), cudaOptions(options), options.ortNativeDir());
        return new Created(OrtEnvironment.getEnvironment().createSession(model, so), device);
    }

    /** Loads a graph ONNX Runtime optimized earlier under the same options, with optimization off. */
    static Created createOptimized(java.nio.file.Path optimized, RuntimeOptions options) throws OrtException {
        OrtSession.SessionOptions so = sessionOptions(options);
        so.setOptimizationLevel(OptLevel.NO_OPT);
        Device device = selectDevice(so, options.device(), cudaOptions(options), options.ortNativeDir());
        return new Created(OrtEnvironment.getEnvironment().createSession(optimized.toString(), so), device);
    }

    /**
     * Points this JVM's ONNX Runtime at {@code options}' native directory before ORT first loads
     * (nothing without one); a directory that cannot be used is a device this node cannot offer.
     */
    static void useNatives(RuntimeOptions options) {
        try {
            OrtNatives.use(options.ortNativeDir());
        } catch (IllegalStateException e) {
            throw new DeviceUnavailableException(e.getMessage(), e);
        }
    }

    private static OrtSession.SessionOptions sessionOptions(RuntimeOptions options) throws OrtException {
        useNatives(options);
        OrtSession.SessionOptions so = new OrtSession.SessionOptions();
        so.setSessionLogLevel(LOG_LEVEL);
        if (options.ortNativeDir() != null && NATIVES_LOGGED.compareAndSet(false, true)) {
            // ORT is loaded now: say from where, as the process maps it
            LOG.info("ONNX Runtime {} loaded from {} (--ort-native-dir {})",
                    OrtEnvironment.getEnvironment().getVersion(),
                    OrtNatives.loadedLibrary().map(Object::toString).orElse("an unknown place"), options.ortNativeDir());
        }
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
        return selectDevice(so, requested, cuda, null);
    }

    /**
     * As above, with the native directory ORT was loaded from ({@code null}: the jar's), which
     * the diagnosis of a provider that cannot load checks ({@link CudaDoctor}).
     */
    static Device selectDevice(OrtSession.SessionOptions so, Device requested, java.util.Map<String, String> cuda,
            String ortNativeDir) {
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
                        "Device auto: CUDA provider unavailable ({}); running on CPU"
                                + " (flink-inference doctor --device cuda says why)",
                        e.getMessage());
                return Device.CPU;
            }
            CudaDoctor.Diagnosis why = DIAGNOSES.computeIfAbsent(requested.index() + "\n" + ortNativeDir,
                    k -> CudaDoctor.ofThisNode(requested.index(),
                            ortNativeDir == null ? null : java.nio.file.Path.of(ortNativeDir)));
            throw new DeviceUnavailableException(
                    "Device " + requested + " requested but the CUDA execution provider cannot be"
                            + " used (" + oneLine(e.getMessage()) + "). flink-inference doctor: "
                            + (why.canLoad() ? "the node looks right (" + why.summary() + "); run doctor"
                                    + " --device " + requested + " on it" : why.summary()),
                    e);
        }
    }

    private static String oneLine(String message) {
        return message == null ? "no message" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /**
     * The CUDA provider options set in {@code options}, by ONNX Runtime's key ({@code
     * gpu_mem_limit}, {@code arena_extend_strategy}, {@code use_tf32}); empty when all are ORT's
     * defaults.
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
        if (options.cudaTf32() != null) {
            cuda.put("use_tf32", options.cudaTf32() ? "1" : "0");
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

    /** The level a name gives ({@code verbose}, {@code info}, {@code warning}, {@code error}, {@code fatal}). */
    static OrtLoggingLevel logLevel(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "verbose" -> OrtLoggingLevel.ORT_LOGGING_LEVEL_VERBOSE;
            case "info" -> OrtLoggingLevel.ORT_LOGGING_LEVEL_INFO;
            case "warning", "warn" -> OrtLoggingLevel.ORT_LOGGING_LEVEL_WARNING;
            case "fatal" -> OrtLoggingLevel.ORT_LOGGING_LEVEL_FATAL;
            default -> OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR;
        };
    }
}
