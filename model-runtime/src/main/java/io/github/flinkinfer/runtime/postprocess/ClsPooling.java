package io.github.flinkinfer.runtime.postprocess;

/** Takes each input's first token vector ([CLS]), the sentence vector bge was trained with. */
public final class ClsPooling extends PoolingStep {

    @Override
    protected void pool(ModelOutput.TokenVectors tokens, int row, float[] v) {
        tokens.states().get(tokens.rowStart(row), v, 0, tokens.hidden());
    }
}
