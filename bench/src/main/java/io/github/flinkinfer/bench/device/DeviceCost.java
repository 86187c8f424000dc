package io.github.flinkinfer.bench.device;

import java.io.Serializable;

/**
 * What one model call costs on a simulated device: a fixed launch overhead plus the batch's padded
 * tokens (rows × longest row, what a GPU computes) at a rate. Simple on purpose: a real encoder's
 * cost also grows with the sequence length (attention), which the rate of a given length folds in.
 *
 * <pre>{@code
 * DeviceCost t4 = new DeviceCost(300, 400_000); // 0.3 ms per call, 400k padded tokens/s
 * long nanos = t4.nanos(32, 64);                // 0.3 ms + 2,048 / 400k s = 5.42 ms
 * }</pre>
 *
 * <p>Presets measured on a GPU ({@link #preset}, the benchmark's {@code sim-device@preset=NAME}):
 * an NVIDIA H200 (driver 580.159.04, CUDA 13.0), PyTorch eager, the all-MiniLM-L6-v2 shape (6
 * layers, 384 wide) over the GCIDE corpus's token lengths at max length 128 (issue 39): about 2 ms
 * per call from 1 to 128 rows whatever the precision (launch overhead), then 0.076 µs per padded
 * token in fp16/bf16 (13.2M padded tokens/s) and 0.198 µs in TF32 (5.05M). As launch plus
 * tokens ÷ rate, a 2,048 × 128 batch costs 2 ms + 19.9 ms = 21.9 ms (12.0M padded tokens/s; 11.5M
 * measured). A 12-layer model of the same width (bge-small, e5-small) about halves the rate
 * (24–29k items/s measured against 56k for MiniLM-L6 in TF32).
 *
 * @param launchMicros fixed cost of one call (kernel launches, copies, synchronization), µs
 * @param paddedTokensPerSecond padded tokens the device computes per second
 */
public record DeviceCost(double launchMicros, double paddedTokensPerSecond) implements Serializable {
    /** H200, MiniLM-L6 shape, fp16/bf16: 2 ms per call + 0.076 µs per padded token (issue 39). */
    public static final DeviceCost H200_MINILM_FP16 = new DeviceCost(2000, 1e6 / 0.076);

    /** H200, MiniLM-L6 shape, TF32: 2 ms per call + 0.198 µs per padded token (issue 39). */
    public static final DeviceCost H200_MINILM_TF32 = new DeviceCost(2000, 1e6 / 0.198);

    /** The presets by the name the benchmark's {@code preset=} lever takes. */
    public static final java.util.Map<String, DeviceCost> PRESETS =
            java.util.Map.of("h200-fp16", H200_MINILM_FP16, "h200-tf32", H200_MINILM_TF32);

    public DeviceCost {
        if (launchMicros < 0 || !(paddedTokensPerSecond > 0)) {
            throw new IllegalArgumentException("launch must be >= 0 µs and the rate > 0 tokens/s");
        }
    }

    /** The preset {@code name} ({@link #PRESETS}). */
    public static DeviceCost preset(String name) {
        DeviceCost cost = PRESETS.get(name);
        if (cost == null) {
            throw new IllegalArgumentException("Unknown device preset '" + name + "': " + new java.util.TreeSet<>(PRESETS.keySet()));
        }
        return cost;
    }

    /** The device time of a batch of {@code rows} inputs padded to {@code paddedLength} tokens. */
    public long nanos(int rows, int paddedLength) {
        return Math.round(launchMicros * 1e3 + (double) rows * paddedLength / paddedTokensPerSecond * 1e9);
    }
}
