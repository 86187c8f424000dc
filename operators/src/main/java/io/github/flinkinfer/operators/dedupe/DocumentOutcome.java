package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.StringBlockSerializer;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What {@link KeepFirstDecision} keys by id for one document of the corpus: its position
 * mark (its outcome, a result or an error row, is never keyed: {@link DuplicateOutcomeFilter}). A
 * Flink POJO kept small, since there is one mark per document: id, position, and, where the
 * decision writes the {@code duplicate_id} row the document becomes if another document of its id
 * is kept ({@link #mark}), the input's length and sha256 (raw bytes). The id pass's marks ({@link
 * #position}) carry neither: the filter before tokenize, which holds the dropped document, writes
 * its row. Its strings are written in one block each ({@link StringBlockSerializer}): BATCH sorts
 * every mark.
 */
public class DocumentOutcome {
    @TypeInfo(StringBlockSerializer.Factory.class)
    public String id;
    /** The document's position, {@code <path>@<offset>} or {@code <path>:<line>}. */
    @TypeInfo(StringBlockSerializer.Factory.class)
    public String source;
    /** The input's length in characters (-1 without a text). */
    public long inputLength = -1;
    /** sha256 of the input's UTF-8 bytes (empty without a text; null in a {@link #position} mark). */
    public byte[] inputSha256;

    public DocumentOutcome() {}

    /**
     * The id and position of {@code doc}, without its input's length and hash: the id pass's mark,
     * whose document, if dropped, gets its {@code duplicate_id} row from {@link
     * DuplicateOutcomeFilter#ofDocuments()} (which has its text) instead of the decision.
     */
    public static DocumentOutcome position(Document doc) {
        DocumentOutcome o = new DocumentOutcome();
        o.id = doc.id;
        o.source = doc.source;
        return o;
    }

    /** Whether this mark carries its input's length and hash, so that the decision writes its row. */
    public boolean describesInput() {
        return inputSha256 != null;
    }

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
