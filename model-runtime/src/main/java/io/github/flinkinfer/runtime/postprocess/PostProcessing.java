package io.github.flinkinfer.runtime.postprocess;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@link PostProcessor} steps that turn a graph's output into one vector per input, run in
 * order. The model card picks the default ({@code ModelCard.postProcessing()}); a caller may
 * give its own list.
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

    /** This pipeline, then {@code more}'s steps. */
    public PostProcessing then(PostProcessing more) {
        List<PostProcessor> all = new ArrayList<>(steps);
        all.addAll(more.steps);
        return new PostProcessing(all);
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
