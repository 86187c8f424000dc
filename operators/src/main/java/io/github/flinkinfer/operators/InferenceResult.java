package io.github.flinkinfer.operators;

/** The model's output for one input, keyed by the input id. */
public class InferenceResult {
    public String id;
    public String source;
    /** The embedding (or class scores for classification models); serialized in one block. */
    @org.apache.flink.api.common.typeinfo.TypeInfo(VectorSerializer.Factory.class)
    public float[] vector;
    public int tokenCount;
    public int originalTokenCount;
    public boolean truncated;
    public String model;
    public String modelVersion;
    /** Document, content hash and token window this row comes from (null on old inputs). */
    public io.github.flinkinfer.operators.chunk.ChunkRef chunk;

    public InferenceResult() {}

    @Override
    public String toString() {
        return "InferenceResult{id=" + id + ", dim=" + (vector == null ? 0 : vector.length) + "}";
    }
}
