package io.github.flinkinfer.operators.dedupe;

import io.github.flinkinfer.operators.Document;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Passes each document on unchanged and marks its position ({@link #MARKS}), so that a
 * keep-first dedupe after inference knows every document of an id and can write its {@code
 * duplicate_id} row (length and sha256 of the input, as before). For inputs that cannot be read
 * twice (Kafka): a file input's marks come from a pass of their own ({@code
 * KeepFirstAfterInference}). Chained to the source: no exchange before inference.
 */
public class PositionMarker extends ProcessFunction<Document, Document> {
    /** One mark per document passed on. */
    public static final OutputTag<DocumentOutcome> MARKS =
            new OutputTag<>("position-marks", TypeInformation.of(DocumentOutcome.class));

    @Override
    public void processElement(Document doc, Context ctx, Collector<Document> out) {
        ctx.output(MARKS, DocumentOutcome.mark(doc));
        out.collect(doc);
    }
}
