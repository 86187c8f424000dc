package io.github.flinkinfer.operators;

/**
 * What one document of the corpus came to, as {@link KeepFirstOutcomesFunction} keys it by id
 * after inference: its position mark (the duplicate row it would become), a result row, or an
 * error row of tokenization or inference. A Flink POJO: exactly one of the three is set.
 */
public class DocumentOutcome {
    public String id;
    /** The document's position, {@code <path>:<line>}. */
    public String source;
    /** Set on the mark: the {@code duplicate_id} row (length and sha256 of the input, no message yet). */
    public ErrorRecord duplicateRow;
    public InferenceResult result;
    public ErrorRecord error;

    public DocumentOutcome() {}

    /** The mark {@link PositionMarker} emits for each document it passes on. */
    public static DocumentOutcome mark(Document doc) {
        DocumentOutcome o = new DocumentOutcome();
        o.id = doc.id;
        o.source = doc.source;
        o.duplicateRow = ErrorRecord.of(doc.id, doc.source, ErrorReason.DUPLICATE_ID, null, 1).withInput(doc.text);
        return o;
    }

    public static DocumentOutcome of(InferenceResult result) {
        DocumentOutcome o = new DocumentOutcome();
        o.id = result.id;
        o.source = result.source;
        o.result = result;
        return o;
    }

    public static DocumentOutcome of(ErrorRecord error) {
        DocumentOutcome o = new DocumentOutcome();
        o.id = error.id;
        o.source = error.source;
        o.error = error;
        return o;
    }

    public boolean isMark() {
        return duplicateRow != null;
    }

    /** Whether the document reached the model: a result, or an error of inference or later. */
    public boolean reachedModel() {
        return result != null || (error != null && !ErrorRecord.TOKENIZE.equals(error.stage));
    }
}
