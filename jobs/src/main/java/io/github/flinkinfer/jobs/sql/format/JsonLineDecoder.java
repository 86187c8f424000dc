package io.github.flinkinfer.jobs.sql.format;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.io.JsonDocuments;
import io.github.flinkinfer.jobs.io.RawLine;
import io.github.flinkinfer.operators.errors.ErrorReason;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.util.Collector;

/**
 * Turns one line into exactly one row: the JSON object's fields (Flink's {@code json} format
 * converts them), or NULL fields with {@code parse/<reason>} in the error column. The source
 * column, when declared, holds {@code file:line} either way. Reasons are those of the embed
 * job's parser (docs/errors.md): {@code record_too_large}, {@code invalid_utf8}, {@code
 * malformed_json}, {@code not_an_object}, and {@code invalid_field} for JSON whose field does not
 * convert to its column's type. Neither the input nor the parser's message is kept.
 */
final class JsonLineDecoder {
    private final DeserializationSchema<RowData> json;
    private final RowShape shape;
    private final RowData.FieldGetter[] getters;
    private final List<RowData> parsed = new ArrayList<>(1);
    private final Collector<RowData> collector = new Collector<>() {
        @Override
        public void collect(RowData row) {
            parsed.add(row);
        }

        @Override
        public void close() {}
    };
    private ObjectMapper syntax;

    /** @param json an opened deserializer of the shape's JSON columns */
    JsonLineDecoder(DeserializationSchema<RowData> json, RowShape shape) {
        this.json = json;
        this.shape = shape;
        this.getters = new RowData.FieldGetter[shape.jsonTypes().length];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = RowData.createFieldGetter(shape.jsonTypes()[i], i);
        }
    }

    RowData decode(RawLine line) {
        String pos = line.position();
        if (line.oversized) {
            return error(pos, ErrorReason.RECORD_TOO_LARGE);
        }
        String text;
        try {
            text = JsonDocuments.decodeUtf8(line.bytes);
        } catch (CharacterCodingException e) {
            return error(pos, ErrorReason.INVALID_UTF8);
        }
        if (text.isBlank()) {
            return error(pos, ErrorReason.MALFORMED_JSON);
        }
        if (text.stripLeading().charAt(0) != '{') {
            return error(pos, isJson(text) ? ErrorReason.NOT_AN_OBJECT : ErrorReason.MALFORMED_JSON);
        }
        parsed.clear();
        try {
            json.deserialize(line.bytes, collector);
        } catch (Exception e) {
            return error(pos, isJson(text) ? ErrorReason.INVALID_FIELD : ErrorReason.MALFORMED_JSON);
        }
        if (parsed.isEmpty()) {
            return error(pos, ErrorReason.NOT_AN_OBJECT);
        }
        RowData in = parsed.get(0);
        GenericRowData row = new GenericRowData(shape.arity());
        for (int i = 0; i < getters.length; i++) {
            row.setField(shape.jsonIndexes()[i], getters[i].getFieldOrNull(in));
        }
        setSource(row, pos);
        return row;
    }

    /** Only on the failure paths: tells a syntax error from well-formed JSON we cannot use. */
    private boolean isJson(String text) {
        if (syntax == null) {
            syntax = new ObjectMapper();
        }
        try {
            syntax.readTree(text);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private RowData error(String pos, ErrorReason reason) {
        GenericRowData row = new GenericRowData(shape.arity());
        row.setField(shape.errorIndex(), StringData.fromString(reason.qualified()));
        setSource(row, pos);
        return row;
    }

    private void setSource(GenericRowData row, String pos) {
        if (shape.sourceIndex() >= 0) {
            row.setField(shape.sourceIndex(), StringData.fromString(pos));
        }
    }
}
