package io.github.flinkinfer.jobs.sql.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.io.RawLine;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every line gives one row: the JSON's fields, or NULLs and the embed job's parse reason. */
class JsonLineDecoderTest {
    private static final DataType TABLE = DataTypes.ROW(
            DataTypes.FIELD("doc_id", DataTypes.STRING()),
            DataTypes.FIELD("error", DataTypes.STRING()),
            DataTypes.FIELD("body", DataTypes.STRING()),
            DataTypes.FIELD("n", DataTypes.INT()),
            DataTypes.FIELD("source", DataTypes.STRING()));

    private JsonLineDecoder decoder;

    @BeforeEach
    void open() throws Exception {
        RowShape shape = RowShape.of(TABLE, "error", "source");
        assertThat(shape.jsonIndexes()).containsExactly(0, 2, 3);
        RowType json = (RowType) RowType.of(shape.jsonTypes(), new String[] {"doc_id", "body", "n"});
        DeserializationSchema<RowData> schema = new JsonParserRowDataDeserializationSchema(
                json, InternalTypeInfo.of(json), false, false, TimestampFormat.SQL);
        schema.open(null);
        decoder = new JsonLineDecoder(schema, shape);
    }

    @Test
    void aJsonObjectFillsItsColumnsAndTheSource() {
        RowData row = decode("{\"doc_id\": \"d1\", \"body\": \"héllo\", \"n\": 3}", 1);
        assertThat(row.getString(0).toString()).isEqualTo("d1");
        assertThat(row.isNullAt(1)).isTrue();
        assertThat(row.getString(2).toString()).isEqualTo("héllo");
        assertThat(row.getInt(3)).isEqualTo(3);
        assertThat(row.getString(4).toString()).isEqualTo("docs.jsonl@1");
    }

    @Test
    void missingFieldsAreNullNotErrors() {
        RowData row = decode("{\"doc_id\": \"d2\"}", 2);
        assertThat(row.isNullAt(1)).isTrue();
        assertThat(row.isNullAt(2)).isTrue();
    }

    @Test
    void badLinesBecomeErrorRowsWithTheirReasonAndPosition() {
        assertError(decode("{\"doc_id\": \"d3\", \"body\": ", 3), "parse/malformed_json", 3);
        assertError(decode("   ", 4), "parse/malformed_json", 4);
        assertError(decode("[1, 2]", 5), "parse/not_an_object", 5);
        assertError(decode("{\"doc_id\": \"d6\", \"n\": \"six\"}", 6), "parse/invalid_field", 6);
        byte[] latin1 = "{\"doc_id\": \"d7\", \"body\": \"caf\u00e9\"}"
                .getBytes(StandardCharsets.ISO_8859_1);
        assertError(decoder.decode(RawLine.atOffset("docs.jsonl", 7, latin1, latin1.length, false)),
                "parse/invalid_utf8", 7);
        assertError(decoder.decode(RawLine.atOffset("docs.jsonl", 8, null, 5_000_000, true)),
                "parse/record_too_large", 8);
    }

    @Test
    void theErrorColumnMustBeDeclared() {
        DataType noError = DataTypes.ROW(DataTypes.FIELD("doc_id", DataTypes.STRING()));
        assertThatThrownBy(() -> RowShape.of(noError, "error", "source"))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("needs a column `error` STRING");
        DataType intError = DataTypes.ROW(DataTypes.FIELD("error", DataTypes.INT()));
        assertThatThrownBy(() -> RowShape.of(intError, "error", "source"))
                .hasMessageContaining("must be STRING");
    }

    private RowData decode(String line, long offset) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return decoder.decode(RawLine.atOffset("docs.jsonl", offset, bytes, bytes.length, false));
    }

    private static void assertError(RowData row, String error, long line) {
        assertThat(row.getString(1).toString()).isEqualTo(error);
        assertThat(row.isNullAt(0)).isTrue();
        assertThat(row.isNullAt(2)).isTrue();
        assertThat(row.isNullAt(3)).isTrue();
        assertThat(row.getString(4).toString()).isEqualTo("docs.jsonl@" + line);
    }
}
