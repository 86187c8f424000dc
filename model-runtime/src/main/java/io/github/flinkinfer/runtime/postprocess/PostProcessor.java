package io.github.flinkinfer.runtime.postprocess;

/**
 * One step after the session run: pools token vectors ({@link MeanPooling}, {@link ClsPooling})
 * or rewrites the pooled vectors ({@link L2Normalize}, {@link Softmax}, {@link Sigmoid});
 * {@link PostProcessing} runs a list of them in order.
 */
@FunctionalInterface
public interface PostProcessor {
    /** Returns the step's result; vector steps may change {@code output}'s arrays in place. */
    ModelOutput apply(ModelOutput output);
}
