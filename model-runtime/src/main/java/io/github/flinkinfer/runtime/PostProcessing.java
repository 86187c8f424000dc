package io.github.flinkinfer.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@link PostProcessor} steps that turn a graph's output into one vector per input, run in
 * order. The model card picks the default ({@link #forCard}); a caller may give its own list.
 *
 * <pre>{@code
 * OnnxModel cls = OnnxModel.load(card, options, PostProcessing.of(new ClsPooling(), new L2Normalize()));
 * }</pre>
 */
public final class PostProcessing {
    private final List<PostProcessor> steps;

    private PostProcessing(List<PostProcessor> steps) {
        this.steps = List.copyOf(steps);
    }

    public static PostProcessing of(PostProcessor... steps) {
        return new PostProcessing(List.of(steps));
    }

    public static PostProcessing of(List<PostProcessor> steps) {
        return new PostProcessing(steps);
    }

    /**
     * The card's pipeline: its pooling; then L2 normalization for an embedding model whose card
     * asks for it, or the activation for a single-graph classifier.
     */
    public static PostProcessing forCard(ModelCard card) {
        List<PostProcessor> steps = new ArrayList<>(3);
        steps.add(card.pooling == Pooling.CLS ? new ClsPooling() : new MeanPooling());
        if (card.task == ModelTask.CLASSIFICATION) {
            steps.addAll(activation(card.classification).steps);
        } else if (card.normalize) {
            steps.add(new L2Normalize());
        }
        return new PostProcessing(steps);
    }

    /** How a classifier's logits become scores: softmax, sigmoid, or none (see the card). */
    public static PostProcessing activation(Classification classes) {
        switch (classes.effectiveActivation()) {
            case SOFTMAX:
                return of(new Softmax());
            case SIGMOID:
                return of(new Sigmoid());
            default:
                return of();
        }
    }

    /** Runs the steps; the last one must leave one vector per input. */
    public float[][] apply(ModelOutput output) {
        ModelOutput out = output;
        for (PostProcessor step : steps) {
            out = step.apply(out);
        }
        return out.vectors("The end of post-processing [" + this + "]");
    }

    public List<PostProcessor> steps() {
        return steps;
    }

    /** The steps' names, e.g. {@code MeanPooling -> L2Normalize}. */
    @Override
    public String toString() {
        return steps.stream().map(Object::toString).collect(Collectors.joining(" -> "));
    }
}
