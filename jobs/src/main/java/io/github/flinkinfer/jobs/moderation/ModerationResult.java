package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.runtime.card.Classification;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One item's verdict: the top label and its score, every label's score (in the model card's
 * label order), and whether any label crossed its threshold. A Flink POJO.
 */
public class ModerationResult {
    public String id;
    public String source;
    public String label;
    public float score;
    /** Scores in the order of {@link #labels}. */
    public float[] scores;
    public String[] labels;
    public boolean flagged;
    /** The labels whose thresholds were crossed (empty when not flagged). */
    public String[] flaggedLabels;
    public int tokenCount;
    public boolean truncated;
    public String model;
    public String modelVersion;
    /**
     * Chunked runs ({@code --chunk-size}): how many token windows the document had (0 = not
     * chunked), and the window that decided the verdict (see {@link DocVerdictFunction}): its
     * index and content-token range. {@code docId} is the document's id while chunks are in
     * flight (a chunk's own {@code id} is {@code <doc>#<index>}).
     */
    public int chunkCount;
    public int decidingChunk = -1;
    public int decidingTokenStart;
    public int decidingTokenEnd;
    public String docId;

    public ModerationResult() {}

    /** Labels an inference result's scores with the model card's classification section. */
    public static ModerationResult of(InferenceResult r, Classification classification) {
        Classification.Decision d = classification.decide(r.vector);
        ModerationResult m = new ModerationResult();
        m.id = r.id;
        m.source = r.source;
        m.label = d.label();
        m.score = d.score();
        m.scores = r.vector;
        m.labels = classification.labels.toArray(String[]::new);
        m.flagged = d.flagged();
        m.flaggedLabels = d.flaggedLabels().toArray(String[]::new);
        m.tokenCount = r.tokenCount;
        m.truncated = r.truncated;
        m.model = r.model;
        m.modelVersion = r.modelVersion;
        if (r.chunk != null && r.chunk.isChunk()) {
            m.docId = r.chunk.docId;
            m.chunkCount = r.chunk.chunkCount;
            m.decidingChunk = r.chunk.chunkIndex;
            m.decidingTokenStart = r.chunk.tokenStart;
            m.decidingTokenEnd = r.chunk.tokenEnd;
        }
        return m;
    }

    /** The score of {@code label}, or NaN when the model has no such label. */
    public float scoreOf(String label) {
        for (int i = 0; i < labels.length; i++) {
            if (labels[i].equals(label)) {
                return scores[i];
            }
        }
        return Float.NaN;
    }

    /**
     * The output columns in order, the one field mapping both writers (JSON lines and Parquet)
     * use: {@code scores} as a map keyed by label, the chunk columns only for chunked runs.
     */
    public Map<String, Object> columns() {
        Map<String, Float> byLabel = new LinkedHashMap<>();
        for (int i = 0; i < labels.length; i++) {
            byLabel.put(labels[i], scores[i]);
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", id);
        c.put("label", label);
        c.put("score", score);
        c.put("scores", byLabel);
        c.put("flagged", flagged);
        c.put("flagged_labels", Arrays.asList(flaggedLabels));
        c.put("model", model);
        c.put("model_version", modelVersion);
        c.put("token_count", tokenCount);
        c.put("truncated", truncated);
        c.put("source", source);
        if (chunkCount > 0) {
            c.put("chunk_count", chunkCount);
            c.put("deciding_chunk", decidingChunk);
            c.put("deciding_token_start", decidingTokenStart);
            c.put("deciding_token_end", decidingTokenEnd);
        }
        return c;
    }

    @Override
    public String toString() {
        return "ModerationResult{id=" + id + ", label=" + label + ", score=" + score + ", flagged=" + flagged + "}";
    }
}
