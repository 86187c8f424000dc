package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.StringBlockSerializer;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A document {@link KeepFirstDecision} dropped as a duplicate: its position, and the position of
 * the document of its id that is kept (which the {@code duplicate_id} row names). Sent to the
 * {@link DuplicateOutcomeFilter} subtask of its position ({@link DuplicateOutcomeFilter#positions()}),
 * or broadcast to every one; a Flink POJO.
 */
public class DroppedDuplicate {
    /** The dropped document's position, {@code <path>@<offset>} or {@code <path>:<line>}. */
    @TypeInfo(StringBlockSerializer.Factory.class)
    public String position;
    /** The kept document's position. */
    @TypeInfo(StringBlockSerializer.Factory.class)
    public String keptAt;

    public DroppedDuplicate() {}

    public DroppedDuplicate(String position, String keptAt) {
        this.position = position;
        this.keptAt = keptAt;
    }

    @Override
    public String toString() {
        return position + " (kept: " + keptAt + ")";
    }
}
