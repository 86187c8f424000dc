package io.github.flinkinfer.runtime.postprocess;

import java.nio.FloatBuffer;

/**
 * A graph's output on its way through the {@link PostProcessor} steps: token vectors until a
 * pooling step turns them into one vector per input.
 *
 * <pre>{@code
 * ModelOutput out = new ModelOutput.TokenVectors(states, rows, tokens, hidden, lengths);
 * float[][] embeddings = PostProcessing.of(new MeanPooling(), new L2Normalize()).apply(out);
 * }</pre>
 */
public sealed interface ModelOutput {

    /**
     * Token vectors [rows, tokens, hidden], row-major, padded to the longest input.
     *
     * @param states the values, {@code rows * tokens * hidden} floats from index 0
     * @param lengths each row's real (unpadded) token count: its attention mask
     */
    record TokenVectors(FloatBuffer states, int rows, int tokens, int hidden, int[] lengths)
            implements ModelOutput {
        /** Where row {@code r}'s first token vector starts in {@link #states}. */
        public int rowStart(int r) {
            return r * tokens * hidden;
        }
    }

    /** One vector per input (pooled embeddings, logits or scores); steps may change them in place. */
    record Vectors(float[][] rows) implements ModelOutput {}

    /** These vectors; {@code step} names the caller in the error when not pooled yet. */
    default float[][] vectors(String step) {
        if (this instanceof Vectors v) {
            return v.rows();
        }
        throw new IllegalStateException(
                step + " needs one vector per input; put a pooling step before it");
    }
}
