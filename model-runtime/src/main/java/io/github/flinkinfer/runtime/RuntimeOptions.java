package io.github.flinkinfer.runtime;

import java.io.Serializable;

/**
 * ONNX Runtime session settings, all explicit so runs are reproducible.
 *
 * @param device where to run
 * @param intraOpThreads threads one inference call may use (0 = ORT default: all cores)
 * @param optimizationLevel graph optimization: none, basic, extended, all
 * @param maxSequenceLength tokens per input after truncation (0 = the model card's maximum)
 */
public record RuntimeOptions(
        Device device, int intraOpThreads, String optimizationLevel, int maxSequenceLength)
        implements Serializable {

    public static RuntimeOptions defaults() {
        return new RuntimeOptions(Device.CPU, 1, "all", 0);
    }

    public RuntimeOptions {
        if (intraOpThreads < 0) {
            throw new IllegalArgumentException("intra-op threads must be >= 0");
        }
        if (maxSequenceLength < 0) {
            throw new IllegalArgumentException("max sequence length must be >= 0");
        }
        OrtSessions.optLevel(optimizationLevel); // validates
    }

    public RuntimeOptions withDevice(Device d) {
        return new RuntimeOptions(d, intraOpThreads, optimizationLevel, maxSequenceLength);
    }

    public RuntimeOptions withIntraOpThreads(int n) {
        return new RuntimeOptions(device, n, optimizationLevel, maxSequenceLength);
    }

    public RuntimeOptions withMaxSequenceLength(int n) {
        return new RuntimeOptions(device, intraOpThreads, optimizationLevel, n);
    }

    /** The effective max length for a card: the smaller of this option and the card's limit. */
    public int effectiveMaxLength(ModelCard card) {
        return maxSequenceLength == 0
                ? card.maxSequenceLength
                : Math.min(maxSequenceLength, card.maxSequenceLength);
    }
}
