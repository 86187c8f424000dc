package io.github.flinkinfer.runtime;

import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;

/**
 * The seam between the pipeline and an inference engine: one call runs one batch of tokenized
 * inputs and returns one vector per input (an embedding, or class scores), in input order.
 * Implementations pad the batch to its longest input. Tests inject faults by wrapping it.
 *
 * <pre>{@code
 * float[][] vectors = model.infer(List.of(tokenizer.encode(text).ids())).vectors();
 * TokenizedText pair = tokenizer.encodePair(query, passage);
 * float[][] scored = model.infer(List.of(pair.ids()), List.of(pair.segmentIds())).vectors();
 * }</pre>
 */
public interface ModelRuntime extends AutoCloseable {

    /** Runs the batch. Throws {@link InferenceException} when it cannot. */
    Inference infer(List<int[]> batch);

    /**
     * Runs a batch whose inputs may be text pairs: {@code segmentIds} holds, per input, each
     * token's segment (0 first text, 1 second; see {@link TokenizedText#segmentIds()}), or is
     * null for single texts. Runtimes that take only single texts refuse non-null segments.
     */
    default Inference infer(List<int[]> batch, List<int[]> segmentIds) {
        if (segmentIds != null) {
            throw new UnsupportedOperationException(
                    getClass().getSimpleName() + " takes single texts only, not text pairs");
        }
        return infer(batch);
    }

    ModelCard card();

    /** The device the session really runs on (after any {@code auto} fallback). */
    Device device();

    /** Where this runtime's load time went (zeros when it reused a shared session). */
    default LoadTimes loadTimes() {
        return LoadTimes.NONE;
    }

    @Override
    void close();
}
