package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * What {@link KeepFirstDecision} keys by id for one document of the corpus: its position
 * mark (its outcome, a result or an error row, is never keyed: {@link DuplicateOutcomeFilter}). A
 * Flink POJO kept small, since there is one mark per document: id, position, and the input's
 * length and sha256 (raw bytes) for the {@code duplicate_id} row it becomes if another document of
 * its id is kept.
 */
public class DocumentOutcome {
    public String id;
    /** The document's position, {@code <path>@<offset>} or {@code <path>:<line>}. */
    public String source;
    /** The input's length in characters (-1 without a text). */
    public long inputLength = -1;
    /** sha256 of the input's UTF-8 bytes (empty without a text). */
    public byte[] inputSha256;

    public DocumentOutcome() {}

    /** The mark of {@code doc}: {@link PositionMarker} emits one for each document it passes on. */
    public static DocumentOutcome mark(Document doc) {
        DocumentOutcome o = new DocumentOutcome();
        o.id = doc.id;
        o.source = doc.source;
        if (doc.text == null) {
            o.inputSha256 = new byte[0];
        } else {
            o.inputLength = doc.text.length();
            o.inputSha256 = ErrorRecord.sha256(doc.text.getBytes(StandardCharsets.UTF_8));
        }
        return o;
    }

    /**
     * The {@code duplicate_id} row of this mark's document, {@code keptAt} being the kept
     * document's position: the row the dedupe before tokenization writes (length and sha256 of
     * the input, never the input).
     */
    public ErrorRecord duplicateRow(String keptAt) {
        ErrorRecord row = ErrorRecord.of(id, source, ErrorReason.DUPLICATE_ID,
                "the record at " + keptAt + " has the same id and is kept", 1);
        row.inputLength = inputLength;
        row.inputSha256 = inputSha256.length == 0 ? null : HexFormat.of().formatHex(inputSha256);
        return row;
    }

}
