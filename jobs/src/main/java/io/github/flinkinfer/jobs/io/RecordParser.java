package io.github.flinkinfer.jobs.io;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.nio.charset.CharacterCodingException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns {@link RawLine}s into {@link Document}s, or into {@link ErrorRecord}s with stage {@code
 * parse} and a reason: {@code record_too_large}, {@code invalid_utf8}, {@code malformed_json},
 * {@code malformed_csv}, {@code not_an_object}, {@code missing_id}, {@code invalid_id}, {@code
 * missing_text}, {@code non_string_text}, {@code empty_text}, {@code nul_character}. Blank lines
 * are skipped silently only in TEXT format. Must run in the reader's subtask (chained): a CSV
 * file's header ({@link RawLine#header}) comes first from each of its splits, and its columns are
 * kept per file.
 */
public class RecordParser extends ProcessFunction<RawLine, Document> {
    private final InputFormat format;
    private final JsonDocuments.Fields fields;

    private transient JsonDocuments json;
    /** One CSV record as its cells (a reader is immutable: one for every record). */
    private transient ObjectReader csv;
    private transient Map<String, int[]> csvColumns;

    public RecordParser(InputFormat format, String idField, String textField, int maxRecordBytes) {
        this.format = format;
        this.fields = new JsonDocuments.Fields(idField, textField, maxRecordBytes);
    }

    @Override
    public void open(OpenContext ctx) {
        json = fields.parser();
        csv = new CsvMapper().readerFor(String[].class);
        csvColumns = new HashMap<>();
    }

    @Override
    public void processElement(RawLine line, Context ctx, Collector<Document> out) {
        if (line.header) { // every CSV split passes its file's header on first; not a document
            csvColumns.put(line.file, header(line));
            return;
        }
        String pos = line.position();
        if (line.oversized) {
            ctx.output(Outputs.ERRORS,
                    ErrorRecord.of(null, pos, ErrorReason.RECORD_TOO_LARGE,
                            line.byteLength + " bytes > max record size " + fields.maxRecordBytes(), 1));
            return;
        }
        String decoded;
        try {
            decoded = decode(line.bytes);
        } catch (CharacterCodingException e) {
            ctx.output(Outputs.ERRORS,
                    ErrorRecord.of(null, pos, ErrorReason.INVALID_UTF8,
                            "line is not valid UTF-8", 1).withInput(line.bytes));
            return;
        }
        switch (format) {
            case TEXT:
                if (!decoded.isBlank()) {
                    emit(pos, pos, decoded, ctx, out);
                }
                break;
            case JSONL:
                json.parse(decoded, pos, null, emitter(ctx, out));
                break;
            case CSV:
                parseCsv(line, pos, decoded, ctx, out);
                break;
            default:
                throw new IllegalStateException("RecordParser does not read " + format);
        }
    }

    private void parseCsv(RawLine line, String pos, String decoded, Context ctx, Collector<Document> out) {
        String[] cells;
        try {
            cells = csv.readValue(decoded);
        } catch (Exception e) {
            ctx.output(Outputs.ERRORS,
                    ErrorRecord.of(null, pos, ErrorReason.MALFORMED_CSV,
                            e.getClass().getSimpleName(), 1).withInput(decoded));
            return;
        }
        int[] cols = csvColumns.get(line.file);
        if (cols == null) {
            throw new IllegalStateException("CSV header of " + line.file + " not seen first");
        }
        if (cells == null || cells.length <= Math.max(cols[0], cols[1])) {
            ctx.output(Outputs.ERRORS,
                    ErrorRecord.of(null, pos, ErrorReason.MALFORMED_CSV,
                            "expected at least " + (Math.max(cols[0], cols[1]) + 1) + " columns", 1)
                            .withInput(decoded));
            return;
        }
        String id = cells[cols[0]];
        if (id == null || id.isEmpty()) {
            ctx.output(Outputs.ERRORS,
                    ErrorRecord.of(null, pos, ErrorReason.MISSING_ID, "empty id", 1)
                            .withInput(decoded));
            return;
        }
        emit(id, pos, cells[cols[1]], ctx, out);
    }

    /** The columns of the id and the text in a CSV header; a header without them fails the job. */
    private int[] header(RawLine line) {
        String file = line.file;
        if (line.oversized) {
            throw new IllegalArgumentException("CSV file " + file + ": its header is " + line.byteLength
                    + " bytes > max record size " + fields.maxRecordBytes());
        }
        String[] cells;
        try {
            cells = csv.readValue(decode(line.bytes));
        } catch (Exception e) {
            throw new IllegalArgumentException("CSV file " + file + ": its first record is not a header ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        String idField = fields.idField();
        String textField = fields.textField();
        int id = -1;
        int text = -1;
        for (int i = 0; cells != null && i < cells.length; i++) {
            if (idField.equals(cells[i])) {
                id = i;
            } else if (textField.equals(cells[i])) {
                text = i;
            }
        }
        if (id < 0 || text < 0) {
            throw new IllegalArgumentException(
                    "CSV file " + file + " needs header columns '" + idField + "' and '" + textField
                            + "'");
        }
        return new int[] {id, text};
    }

    private void emit(String id, String pos, String text, Context ctx, Collector<Document> out) {
        JsonDocuments.checkText(id, pos, text, emitter(ctx, out));
    }

    private static JsonDocuments.Emitter emitter(Context ctx, Collector<Document> out) {
        return JsonDocuments.Emitter.of(out, e -> ctx.output(Outputs.ERRORS, e));
    }

    private static String decode(byte[] bytes) throws CharacterCodingException {
        return JsonDocuments.decodeUtf8(bytes);
    }
}
