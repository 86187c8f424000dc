package io.github.flinkinfer.jobs.options;

import io.github.flinkinfer.operators.models.ModelCards;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.operators.run.QualityGate;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The quality gate's options (docs/measurement.md, "Quality gate"). Off unless a sample size is set. */
public class QualityOptions {
    /** Suffix of the built-in int8 variants; their fp32 model is the name without it. */
    static final String INT8_SUFFIX = "-q";

    @Option(names = "--quality-sample", defaultValue = "0",
            description = "Re-run this many outputs (a uniform sample of the run, split over the inference"
                    + " subtasks) alone through --quality-reference and report the drift (0 = off).")
    public int sample;

    @Option(names = "--quality-seed", defaultValue = "" + QualityGate.DEFAULT_SEED,
            description = "Seed of the quality sample: the same seed and corpus check the same items"
                    + " (recorded as qualitySeed in metrics). Default: ${DEFAULT-VALUE}.")
    public long seed;

    @Option(names = "--quality-reference",
            description = "Reference model (built-in name or card path) for the quality gate."
                    + " Default: the run's own model in fp32 (a built-in int8 variant's fp32 model,"
                    + " otherwise the model itself).")
    public String reference;

    @Option(names = "--quality-floor", defaultValue = "0.95",
            description = "Fail the run when the minimum cosine (embeddings) or the label agreement"
                    + " (classifiers) of the sample is below this. Default: ${DEFAULT-VALUE}.")
    public double floor;

    @Option(names = "--quality-mean-floor",
            description = "Fail the run when the mean cosine of the sample is below this (embeddings;"
                    + " off unless set).")
    public Double meanFloor;

    /** The reference for a run of {@code model}: the option, else the model's fp32 form. */
    public String referenceFor(String model) {
        if (reference != null) {
            return reference;
        }
        String key = model.toLowerCase(Locale.ROOT);
        if (key.endsWith(INT8_SUFFIX)) {
            String fp32 = key.substring(0, key.length() - INT8_SUFFIX.length());
            if (ModelCard.BUILT_IN.contains(fp32)) {
                return fp32;
            }
        }
        return model;
    }

    /** Refuses a reference whose outputs cannot be compared with the model's. */
    public void validateFor(ModelCard card, String model) {
        if (sample <= 0) {
            return;
        }
        ModelCard ref = ModelCards.resolve(referenceFor(model));
        if (ref.task != card.task) {
            throw new IllegalArgumentException("--quality-reference " + referenceFor(model)
                    + " is a model for " + ref.task + ", the run's model " + card.id() + " for "
                    + card.task + "; their outputs cannot be compared");
        }
        if (card.classification != null
                && !ref.classification.labels.equals(card.classification.labels)) {
            throw new IllegalArgumentException("--quality-reference " + referenceFor(model)
                    + " has labels " + ref.classification.labels + ", the run's model "
                    + card.classification.labels);
        }
    }

    /** The gate for the inference operator, or null when off. */
    public QualityGate gate(RuntimeOptions runtime, String model) {
        if (sample <= 0) {
            return null;
        }
        return new QualityGate(ModelRuntimeFactory.onnx(ModelCards.resolve(referenceFor(model)), runtime), sample, seed);
    }
}
