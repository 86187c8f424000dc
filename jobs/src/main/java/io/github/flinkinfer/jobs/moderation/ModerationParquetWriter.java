package io.github.flinkinfer.jobs.moderation;

import io.github.flinkinfer.jobs.io.AvroParquetRowWriter;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;

/**
 * Writes {@link ModerationResult}s as Parquet rows: {@code id, label, score, scores
 * (map<string, float>), flagged, flagged_labels (list<string>), model, model_version,
 * token_count, truncated, source}.
 */
public final class ModerationParquetWriter extends AvroParquetRowWriter<ModerationResult> {
    private static final long serialVersionUID = 1L;

    public static final Schema SCHEMA =
            SchemaBuilder.record("Moderation")
                    .namespace("io.github.flinkinfer")
                    .fields()
                    .requiredString("id")
                    .requiredString("label")
                    .requiredFloat("score")
                    .name("scores").type().map().values().floatType().noDefault()
                    .requiredBoolean("flagged")
                    .name("flagged_labels").type().array().items().stringType().noDefault()
                    .requiredString("model")
                    .requiredString("model_version")
                    .requiredInt("token_count")
                    .requiredBoolean("truncated")
                    .optionalString("source")
                    // chunked runs only (null otherwise): see DocVerdictFunction
                    .optionalInt("chunk_count")
                    .optionalInt("deciding_chunk")
                    .optionalInt("deciding_token_start")
                    .optionalInt("deciding_token_end")
                    .endRecord();

    public ModerationParquetWriter() {
        super(SCHEMA);
    }

    @Override
    protected void fill(GenericData.Record rec, ModerationResult r) {
        r.columns().forEach(rec::put);
    }
}
