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
 * @param launchMicros fixed cost of one call (kernel launches, copies, synchronization), µs
 * @param paddedTokensPerSecond padded tokens the device computes per second
 */
public record DeviceCost(double launchMicros, double paddedTokensPerSecond) implements Serializable {
    public DeviceCost {
        if (launchMicros < 0 || !(paddedTokensPerSecond > 0)) {
            throw new IllegalArgumentException("launch must be >= 0 µs and the rate > 0 tokens/s");
        }
    }

    /** The device time of a batch of {@code rows} inputs padded to {@code paddedLength} tokens. */
    public long nanos(int rows, int paddedLength) {
        return Math.round(launchMicros * 1e3 + (double) rows * paddedLength / paddedTokensPerSecond * 1e9);
    }
}
