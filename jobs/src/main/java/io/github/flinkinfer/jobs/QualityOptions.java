package io.github.flinkinfer.jobs;

import io.github.flinkinfer.operators.ModelRuntimeFactory;
import io.github.flinkinfer.operators.QualityGate;
import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.RuntimeOptions;
import picocli.CommandLine.Option;

/** The quality gate's options (docs/measurement.md, "Quality gate"). Off unless a sample size is set. */
public class QualityOptions {
    @Option(names = "--quality-sample", defaultValue = "0",
            description = "Re-run this many outputs (split over the inference subtasks) alone through"
                    + " --quality-reference and report the drift (0 = off).")
    public int sample;

    @Option(names = "--quality-reference", defaultValue = "all-minilm-l6-v2",
            description = "Reference model (built-in name or card path) for the quality gate."
                    + " Default: ${DEFAULT-VALUE} (fp32).")
    public String reference;

    @Option(names = "--quality-floor", defaultValue = "0.95",
            description = "Fail the run when the minimum cosine (embeddings) or the label agreement"
                    + " (classifiers) of the sample is below this. Default: ${DEFAULT-VALUE}.")
    public double floor;

    /** The gate for the inference operator, or null when off. */
    public QualityGate gate(RuntimeOptions runtime) {
        if (sample <= 0) {
            return null;
        }
        return new QualityGate(ModelRuntimeFactory.onnx(ModelCard.resolve(reference), runtime), sample);
    }
}
