package io.github.flinkinfer.runtime.postprocess;

/** A {@link PostProcessor} that changes each pooled vector on its own, in place. */
public abstract class VectorStep implements PostProcessor {

    /** Changes one vector in place. */
    public abstract void applyTo(float[] vector);

    @Override
    public final ModelOutput apply(ModelOutput output) {
        for (float[] row : output.vectors(toString())) {
            applyTo(row);
        }
        return output;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
