package io.github.flinkinfer.runtime.onnx;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.io.Serializable;

/**
 * ONNX Runtime session settings, all explicit so runs are reproducible.
 *
 * @param device where to run
 * @param intraOpThreads threads one inference call may use (0 = ORT default: all cores)
 * @param optimizationLevel graph optimization: none, basic, extended, all
 * @param maxSequenceLength tokens per input after truncation (0 = the model card's maximum)
 * @param shareSession one ONNX Runtime session per JVM (TaskManager), model, device and session
 *     options, shared by every user ({@link SharedResources}); {@code null} = shared, except a
 *     {@code cpu} session of more than one intra-op thread (see {@link #sharesSession()})
 * @param cudaMemLimitBytes CUDA provider {@code gpu_mem_limit}: the most device memory its arena
 *     may hold (0 = ORT default, no limit)
 * @param cudaArenaExtendStrategy CUDA provider {@code arena_extend_strategy}: {@code
 *     next-power-of-two} or {@code same-as-requested} ({@code null} = ORT default, next power of
 *     two)
 * @param sessionConfig ONNX Runtime session configuration entries ({@code
 *     SessionOptions.addConfigEntry}), e.g. {@code session.intra_op.allow_spinning=0}; empty = none
 * @param profilePrefix where ONNX Runtime writes its per-operator profile (JSON; ORT appends a
 *     timestamp; written when the session closes); {@code null} = profiling off
 * @param cudaTf32 CUDA provider {@code use_tf32}: fp32 MatMul and Conv on the GPU's TF32 tensor
 *     cores ({@code true}, ONNX Runtime's default) or in strict fp32 ({@code false}); {@code null}
 *     = ORT's default
 * @param ortNativeDir a directory with ONNX Runtime's native libraries to load instead of the
 *     jar's (a CUDA 13 build, say), set in each JVM before it loads ORT ({@link
 *     io.github.flinkinfer.runtime.node.OrtNatives}); {@code null} = the jar's, or the JVM's own
 *     {@code -Donnxruntime.native.path}
 * @param poolOnDevice pooling inside the graph ({@link DevicePooling}), so the session returns one
 *     vector per input: {@code true}/{@code false} forces it; {@code null} = by device: on for
 *     {@code cuda} and {@code auto}, off for {@code cpu}
 */
public record RuntimeOptions(
        Device device,
        int intraOpThreads,
        String optimizationLevel,
        int maxSequenceLength,
        Boolean shareSession,
        long cudaMemLimitBytes,
        String cudaArenaExtendStrategy,
        java.util.SortedMap<String, String> sessionConfig,
        String profilePrefix,
        Boolean cudaTf32,
        String ortNativeDir,
        Boolean poolOnDevice)
        implements Serializable {

    /** The CUDA arena extend strategies, by our name and ONNX Runtime's. */
    static final java.util.Map<String, String> ARENA_STRATEGIES =
            java.util.Map.of(
                    "next-power-of-two", "kNextPowerOfTwo", "same-as-requested", "kSameAsRequested");

    public static RuntimeOptions defaults() {
        return new RuntimeOptions(Device.CPU, 1, "all", 0);
    }

    /**
     * Session sharing by device, ORT's default CUDA provider options, no session configuration
     * entries and no profiling; the withers set the rest.
     */
    public RuntimeOptions(
            Device device, int intraOpThreads, String optimizationLevel, int maxSequenceLength) {
        this(device, intraOpThreads, optimizationLevel, maxSequenceLength, null, 0, null, null, null);
    }

    /** All settings but TF32 (ORT's default) and the native directory (the jar's natives). */
    public RuntimeOptions(Device device, int intraOpThreads, String optimizationLevel, int maxSequenceLength,
            Boolean shareSession, long cudaMemLimitBytes, String cudaArenaExtendStrategy,
            java.util.SortedMap<String, String> sessionConfig, String profilePrefix) {
        this(device, intraOpThreads, optimizationLevel, maxSequenceLength, shareSession, cudaMemLimitBytes,
                cudaArenaExtendStrategy, sessionConfig, profilePrefix, null, null);
    }

    /** All settings but where pooling runs (by device). */
    public RuntimeOptions(Device device, int intraOpThreads, String optimizationLevel, int maxSequenceLength,
            Boolean shareSession, long cudaMemLimitBytes, String cudaArenaExtendStrategy,
            java.util.SortedMap<String, String> sessionConfig, String profilePrefix, Boolean cudaTf32,
            String ortNativeDir) {
        this(device, intraOpThreads, optimizationLevel, maxSequenceLength, shareSession, cudaMemLimitBytes,
                cudaArenaExtendStrategy, sessionConfig, profilePrefix, cudaTf32, ortNativeDir, null);
    }

    public RuntimeOptions {
        sessionConfig = java.util.Collections.unmodifiableSortedMap(
                new java.util.TreeMap<>(sessionConfig == null ? java.util.Map.of() : sessionConfig));
        for (String key : sessionConfig.keySet()) {
            if (key.isBlank()) {
                throw new IllegalArgumentException("ONNX Runtime session config key must not be blank");
            }
        }
        if (cudaMemLimitBytes < 0) {
            throw new IllegalArgumentException("CUDA memory limit must be >= 0 (0 = no limit)");
        }
        if (cudaArenaExtendStrategy != null && !ARENA_STRATEGIES.containsKey(cudaArenaExtendStrategy)) {
            throw new IllegalArgumentException(
                    "Unknown CUDA arena extend strategy '" + cudaArenaExtendStrategy
                            + "': next-power-of-two or same-as-requested");
        }
        if (intraOpThreads < 0) {
            throw new IllegalArgumentException("intra-op threads must be >= 0");
        }
        if (maxSequenceLength < 0) {
            throw new IllegalArgumentException("max sequence length must be >= 0");
        }
        OrtSessions.optLevel(optimizationLevel); // validates
    }

    public RuntimeOptions withDevice(Device d) {
        return with(c -> c.device = d);
    }

    public RuntimeOptions withIntraOpThreads(int n) {
        return with(c -> c.intraOpThreads = n);
    }

    public RuntimeOptions withMaxSequenceLength(int n) {
        return with(c -> c.maxSequenceLength = n);
    }

    /** {@code true}/{@code false} forces session sharing; {@code null} decides by device. */
    public RuntimeOptions withShareSession(Boolean share) {
        return with(c -> c.shareSession = share);
    }

    /** CUDA provider memory limit (bytes, 0 = none) and arena strategy (null = ORT default). */
    public RuntimeOptions withCuda(long memLimitBytes, String arenaExtendStrategy) {
        return with(c -> {
            c.cudaMemLimitBytes = memLimitBytes;
            c.cudaArenaExtendStrategy = arenaExtendStrategy;
        });
    }

    /**
     * ONNX Runtime session configuration entries (keys as in ORT's {@code
     * onnxruntime_session_options_config_keys.h}), replacing any set before.
     */
    public RuntimeOptions withSessionConfig(java.util.Map<String, String> entries) {
        return with(c -> c.sessionConfig = new java.util.TreeMap<>(entries));
    }

    /** Per-operator profiling to files starting with {@code prefix}; {@code null} = off. */
    public RuntimeOptions withProfilePrefix(String prefix) {
        return with(c -> c.profilePrefix = prefix);
    }

    /** CUDA provider {@code use_tf32}: {@code true} TF32 tensor cores, {@code false} strict fp32, {@code null} ORT's default. */
    public RuntimeOptions withCudaTf32(Boolean tf32) {
        return with(c -> c.cudaTf32 = tf32);
    }

    /** ONNX Runtime's natives from {@code dir} ({@code null}: the jar's). */
    public RuntimeOptions withOrtNativeDir(String dir) {
        return with(c -> c.ortNativeDir = dir);
    }

    /** Pooling in the graph: {@code true}/{@code false} forces it, {@code null} decides by device. */
    public RuntimeOptions withPoolOnDevice(Boolean pool) {
        return with(c -> c.poolOnDevice = pool);
    }

    /** These options with {@code change} applied to a copy, validated as any new options are. */
    private RuntimeOptions with(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new RuntimeOptions(c.device, c.intraOpThreads, c.optimizationLevel, c.maxSequenceLength,
                c.shareSession, c.cudaMemLimitBytes, c.cudaArenaExtendStrategy, c.sessionConfig,
                c.profilePrefix, c.cudaTf32, c.ortNativeDir, c.poolOnDevice);
    }

    /** The components of one RuntimeOptions as fields a wither may change. */
    private static final class Copy {
        Device device;
        int intraOpThreads;
        final String optimizationLevel;
        int maxSequenceLength;
        Boolean shareSession;
        long cudaMemLimitBytes;
        String cudaArenaExtendStrategy;
        java.util.SortedMap<String, String> sessionConfig;
        String profilePrefix;
        Boolean cudaTf32;
        String ortNativeDir;
        Boolean poolOnDevice;

        Copy(RuntimeOptions o) {
            device = o.device;
            intraOpThreads = o.intraOpThreads;
            optimizationLevel = o.optimizationLevel;
            maxSequenceLength = o.maxSequenceLength;
            shareSession = o.shareSession;
            cudaMemLimitBytes = o.cudaMemLimitBytes;
            cudaArenaExtendStrategy = o.cudaArenaExtendStrategy;
            sessionConfig = o.sessionConfig;
            profilePrefix = o.profilePrefix;
            cudaTf32 = o.cudaTf32;
            ortNativeDir = o.ortNativeDir;
            poolOnDevice = o.poolOnDevice;
        }
    }

    /** Parses {@code key=value} entries (as given on a command line) into a sorted map. */
    public static java.util.SortedMap<String, String> parseEntries(java.util.List<String> entries) {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        for (String e : entries == null ? java.util.List.<String>of() : entries) {
            int eq = e.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "ONNX Runtime config entry '" + e + "' must be key=value");
            }
            out.put(e.substring(0, eq).trim(), e.substring(eq + 1).trim());
        }
        return out;
    }

    /**
     * Whether users of one model on one device share a session: as set, else yes, unless the
     * session runs on the CPU with more than one intra-op thread. ORT runs concurrent calls on one
     * session, so the weights, the arena and the session's creation are paid once per JVM instead
     * of once per slot. A single-threaded CPU call runs on its caller's thread, so sharing costs
     * those calls nothing: real MiniLM, 2 threads on 2 cores, the same rows per second; 16
     * loads 1.2–1.3 s instead of 10.1–10.8 s, and 0.95 GiB instead of 2.5
     * (docs/benchmarks/cpu-shared-session-2026-12-07.md). A CPU session of several intra-op
     * threads has a thread pool the slots' calls would queue on: one session per slot there.
     */
    public boolean sharesSession() {
        if (shareSession != null) {
            return shareSession;
        }
        return device.kind() != Device.Kind.CPU || intraOpThreads == 1;
    }

    /**
     * Parses a byte count: digits with an optional {@code k}, {@code m}, {@code g} suffix (powers
     * of 1024, optionally followed by {@code b}/{@code ib}), e.g. {@code 4g}, {@code 512MiB}.
     */
    public static long parseBytes(String spec) {
        String s = spec.trim().toLowerCase(java.util.Locale.ROOT).replaceAll("i?b$", "");
        long unit = 1;
        if (!s.isEmpty() && "kmg".indexOf(s.charAt(s.length() - 1)) >= 0) {
            unit = 1L << (10 * ("kmg".indexOf(s.charAt(s.length() - 1)) + 1));
            s = s.substring(0, s.length() - 1).trim();
        }
        try {
            long n = Long.parseLong(s);
            if (n >= 0) {
                return Math.multiplyExact(n, unit);
            }
        } catch (NumberFormatException | ArithmeticException ignored) {
            // fall through to the error below
        }
        throw new IllegalArgumentException(
                "Cannot read byte count '" + spec + "': use e.g. 0, 1073741824, 512m or 4g");
    }

    /** The effective max length for a card: the smaller of this option and the card's limit. */
    public int effectiveMaxLength(ModelCard card) {
        return maxSequenceLength == 0
                ? card.maxSequenceLength
                : Math.min(maxSequenceLength, card.maxSequenceLength);
    }
}
