package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.github.flinkinfer.runtime.postprocess.ModelOutput;
import io.github.flinkinfer.runtime.postprocess.PostProcessing;
import io.github.flinkinfer.runtime.postprocess.Sigmoid;
import io.github.flinkinfer.runtime.postprocess.Softmax;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code classification} section of a model card: label names in logit order, how logits
 * become scores, per-label thresholds, and the head graph's tensor names for an embed → head
 * chain. {@link #scores} turns one row of logits into scores; {@link #decide} labels a row.
 *
 * <pre>{@code
 * "classification": {"labels": ["ham", "spam"], "thresholds": {"spam": 0.5}}
 * }</pre>
 */
public final class Classification implements Serializable {
    private static final long serialVersionUID = 1L;

    /** How the graph's outputs become scores. */
    public enum Activation {
        /** Single-label: scores sum to 1 (the default without {@code multiLabel}). */
        SOFTMAX,
        /** Multi-label: each score is independent (the default with {@code multiLabel}). */
        SIGMOID,
        /** The graph already outputs probabilities (e.g. it ends in a Softmax node). */
        NONE
    }

    /** Label names, in the order of the graph's output columns. */
    public final List<String> labels;
    /** Several labels may apply at once (sigmoid) rather than exactly one (softmax). */
    public final boolean multiLabel;
    /** Null = softmax for single-label, sigmoid for multi-label. */
    public final Activation activation;
    /** An item is flagged when any label's score reaches its threshold; others never flag. */
    public final Map<String, Float> thresholds;
    /** Embed → head chain: the head graph's input (pooled embedding) and output (logits). */
    public final String headInput;
    public final String headOutput;

    /** The section as the card file gives it; absent thresholds are none, absent head names the defaults. */
    @JsonCreator
    public Classification(
            @JsonProperty("labels") List<String> labels,
            @JsonProperty("multiLabel") boolean multiLabel,
            @JsonProperty("activation") Activation activation,
            @JsonProperty("thresholds") Map<String, Float> thresholds,
            @JsonProperty("headInput") String headInput,
            @JsonProperty("headOutput") String headOutput) {
        this.labels = labels == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(labels));
        this.multiLabel = multiLabel;
        this.activation = activation;
        this.thresholds = thresholds == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(thresholds)); // keeps the file's order
        this.headInput = headInput == null ? "input" : headInput;
        this.headOutput = headOutput == null ? "output" : headOutput;
    }

    /** One row's verdict: the top label, its score, and whether any threshold was crossed. */
    public record Decision(String label, float score, boolean flagged, List<String> flaggedLabels) {}

    public Activation effectiveActivation() {
        if (activation != null) {
            return activation;
        }
        return multiLabel ? Activation.SIGMOID : Activation.SOFTMAX;
    }

    /** The step that turns logits into scores: softmax, sigmoid, or none. */
    public PostProcessing activationSteps() {
        switch (effectiveActivation()) {
            case SOFTMAX:
                return PostProcessing.of(new Softmax());
            case SIGMOID:
                return PostProcessing.of(new Sigmoid());
            default:
                return PostProcessing.of();
        }
    }

    /** Turns one row of graph outputs into scores, in place; returns it. */
    public float[] scores(float[] logits) {
        requireColumns(logits.length);
        activationSteps().apply(new ModelOutput.Vectors(new float[][] {logits}));
        return logits;
    }

    /** Fails unless a classifier output row has one column per label. */
    public void requireColumns(int columns) {
        if (columns != labels.size()) {
            throw new IllegalStateException(
                    "Classifier output has " + columns + " columns but the card names "
                            + labels.size() + " labels " + labels);
        }
    }

    /** Labels one row of scores (as returned by the runtime). */
    public Decision decide(float[] scores) {
        int top = 0;
        for (int i = 1; i < scores.length; i++) {
            if (scores[i] > scores[top]) {
                top = i;
            }
        }
        List<String> flagged = new ArrayList<>(1);
        for (int i = 0; i < scores.length; i++) {
            Float threshold = thresholds.get(labels.get(i));
            if (threshold != null && scores[i] >= threshold) {
                flagged.add(labels.get(i));
            }
        }
        return new Decision(labels.get(top), scores[top], !flagged.isEmpty(), flagged);
    }

    /** Checks the section; {@code model} names the card in messages. Reports every problem. */
    void validate(String model) {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "Model card '" + model + "' classification: " + String.join("; ", problems));
        }
    }

    /** Every problem of the section, one line each. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (labels == null || labels.size() < 2) {
            problems.add("labels: needs at least two labels");
        } else if (new HashSet<>(labels).size() != labels.size()) {
            problems.add("labels: needs distinct labels, got " + labels);
        }
        if (!multiLabel && effectiveActivation() == Activation.SIGMOID) {
            problems.add("activation: sigmoid needs multiLabel: true");
        }
        for (Map.Entry<String, Float> t : thresholds.entrySet()) {
            if (labels == null || !labels.contains(t.getKey())) {
                problems.add("thresholds: only for its labels; '" + t.getKey() + "' is not one of " + labels);
            }
            if (t.getValue() == null || !(t.getValue() >= 0f && t.getValue() <= 1f)) {
                problems.add("thresholds: must be in [0, 1]; '" + t.getKey() + "' has " + t.getValue());
            }
        }
        return problems;
    }
}
